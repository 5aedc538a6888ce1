import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../../../gateway/server';
import { API_BASES, buildTestGateway, realFixtures, stubDatabase, withXsrf } from '../support/test-gateway';

/** ADR 0008 "Sessions and CSRF": the XSRF-TOKEN cookie on any response without one; the header on every state-changing call. */
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestGateway();
});
afterAll(() => app.close());

const setCookies = (header: string | string[] | undefined) => ([] as string[]).concat(header ?? []);

describe('the XSRF-TOKEN cookie', () => {
  it.each(['/api/site-config-service/config/site/firstbank', '/api/no-such-thing', '/nothing/here'])(
    'is set, readable and SameSite=Lax, on a response to a request without it: GET %s',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      const [line] = setCookies(response.headers['set-cookie']).filter((cookie) => cookie.startsWith('XSRF-TOKEN='));
      expect(line).toMatch(/^XSRF-TOKEN=[\w-]{32}; Path=\/; SameSite=Lax$/);
    },
  );

  it('is not set again when the request has one', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/site-config-service/config/site/firstbank', headers: { cookie: 'XSRF-TOKEN=abc' } });
    expect(response.headers['set-cookie']).toBeUndefined();
  });
});

describe.each(API_BASES)('state-changing calls under %s', (base) => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)('%s without the header is 403 XSRF_TOKEN_MISSING before anything runs', async (method) => {
    const response = await app.inject({ method, url: `${base}/user-mgmt/user/send-code`, headers: { cookie: 'XSRF-TOKEN=abc' }, payload: {} });
    if (method === 'POST') {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: 'XSRF_TOKEN_MISSING', message: 'Send the XSRF-TOKEN cookie value in the X-XSRF-TOKEN header.' });
    } else {
      // No such route for other methods: a plain 404, as for any unknown call.
      expect(response.statusCode).toBe(404);
    }
  });

  it('a header that differs from the cookie is 403 XSRF_TOKEN_INVALID', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `${base}/user-mgmt/user/send-code`,
      headers: { cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abd' },
      payload: {},
    });
    expect(response.json().error).toBe('XSRF_TOKEN_INVALID');
  });

  it('a matching pair passes on to the call itself', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `${base}/user-mgmt/user/send-code`,
      headers: withXsrf(),
      payload: { channel: 'email', purpose: 'login' },
    });
    expect(response.json().error).toBe('LOGIN_CHALLENGE_REQUIRED');
  });

  it('test-mode test-support calls are exempt (the browser tests set themselves up outside any page)', async () => {
    const response = await app.inject({ method: 'POST', url: `${base}/test-support/clock`, payload: { advanceSeconds: 0 } });
    expect(response.statusCode).toBe(200);
  });
});

describe('POST test-support/clock (ADR 0008 "Test clock")', () => {
  it('moves the gateway clock forward only, and answers the new time', async () => {
    const before = Date.now();
    const moved = await app.inject({ method: 'POST', url: '/api/test-support/clock', payload: { advanceSeconds: 3600 } });
    expect(Date.parse(moved.json().now)).toBeGreaterThanOrEqual(before + 3_600_000);
    expect((await app.inject({ method: 'POST', url: '/api/test-support/clock', payload: { advanceSeconds: -5 } })).statusCode).toBe(400);
    expect((await app.inject({ method: 'POST', url: '/api/test-support/clock', payload: {} })).statusCode).toBe(400);
  });

  it('does not exist outside test mode', async () => {
    const production = await buildGateway({ db: stubDatabase, fixtures: await realFixtures(), testMode: false });
    const response = await production.inject({ method: 'POST', url: '/api/test-support/clock', headers: withXsrf(), payload: { advanceSeconds: 60 } });
    expect(response.statusCode).toBe(404);
    await production.close();
  });
});
