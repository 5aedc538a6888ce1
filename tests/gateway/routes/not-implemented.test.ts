import type { FastifyInstance } from 'fastify';
import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASES, buildTestGateway, withXsrf } from '../support/test-gateway';

/**
 * One sample request per row of SPEC §7's table (declared rows included) that a later issue
 * implements. Written from the spec, not from the route list, so a row dropped by mistake fails here.
 * Issue 5 implemented login, token, revoke, get-preference-details, send-code and mfa/totp/* (ADR 0008);
 * issue 6 the account lifecycle calls of ADR 0009 (registration to remove-account); issue 8 the asset
 * calls of ADR 0011 (`tests/gateway/cards/`); issue 9 the concierge calls of ADR 0014 (`tests/gateway/concierge/`), and the OIDC authorize calls of ADR 0015 (`tests/gateway/sso/`).
 */
const PLANNED: [HTTPMethods, string][] = [
  ['GET', 'user-auth/auth/user-token'],
  ['POST', 'user-auth/auth/refresh-token'],
  ['POST', 'user-mgmt/user/alias'],
  ['POST', 'assets/validation'],
];

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestGateway();
});
afterAll(() => app.close());

describe.each(API_BASES)('under %s', (base) => {
  it.each(PLANNED)('%s %s answers 404 NOT_IMPLEMENTED JSON', async (method, path) => {
    const url = `${base}/${path}`;
    // ADR 0008: state-changing calls carry the XSRF pair, or they are refused before anything else.
    const response = await app.inject({ method, url, ...(method === 'POST' ? { payload: {}, headers: withXsrf() } : {}) });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ error: 'NOT_IMPLEMENTED', message: `${method} ${url.split('?')[0]} is not available yet.` });
  });

  it('answers NOT_IMPLEMENTED whatever the body type (multipart, form)', async () => {
    const boundary = 'x-boundary';
    const multipart = await app.inject({
      method: 'POST',
      url: `${base}/user-mgmt/user/alias`,
      headers: withXsrf({ 'content-type': `multipart/form-data; boundary=${boundary}` }),
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="username"\r\n\r\nana\r\n--${boundary}--\r\n`,
    });
    expect(multipart.json().error).toBe('NOT_IMPLEMENTED');
    const form = await app.inject({
      method: 'POST',
      url: `${base}/user-mgmt/user/alias`,
      headers: withXsrf({ 'content-type': 'application/x-www-form-urlencoded' }),
      payload: 'grant_type=client_credentials',
    });
    expect(form.json().error).toBe('NOT_IMPLEMENTED');
  });

  it('refuses a planned POST without the XSRF pair: 403 XSRF_TOKEN_MISSING (ADR 0008)', async () => {
    const response = await app.inject({ method: 'POST', url: `${base}/user-mgmt/user/alias`, payload: {} });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('XSRF_TOKEN_MISSING');
  });

  it.each([
    ['GET', 'no-such-service'],
    ['POST', 'user-auth/no-such-call'],
    ['GET', 'user-mgmt/user/find/extra'],
    ['DELETE', 'site-config-service/config/site/firstbank'],
  ] as [HTTPMethods, string][])('%s %s answers 404 NOT_FOUND JSON', async (method, path) => {
    const response = await app.inject({ method, url: `${base}/${path}` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'NOT_FOUND', message: `${method} ${base}/${path} does not exist.` });
  });
});

it('answers NOT_IMPLEMENTED for the promotions-hosts configuration (a page-root path)', async () => {
  const response = await app.inject({ method: 'GET', url: '/en_us/account/configurations/promotions-en_us.json' });
  expect(response.statusCode).toBe(404);
  expect(response.json().error).toBe('NOT_IMPLEMENTED');
});
