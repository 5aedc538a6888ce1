import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../../gateway/server';
import { buildTestGateway, withXsrf } from '../support/test-gateway';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestGateway();
});
afterAll(() => app.close());

const LOGIN = '/api/user-auth/login';

// DESIGN "Quality bars": bad input gets a clear, specific error and never a 500.
describe('client mistakes answer 4xx JSON in the one error shape', () => {
  it('malformed JSON body -> 400 BAD_REQUEST', async () => {
    const response = await app.inject({
      method: 'POST',
      url: LOGIN,
      headers: withXsrf({ 'content-type': 'application/json' }),
      payload: '{"username": "ana", ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'BAD_REQUEST', message: 'The request body is not valid JSON.' });
  });

  it('empty JSON body -> 400 BAD_REQUEST', async () => {
    const response = await app.inject({ method: 'POST', url: LOGIN, headers: withXsrf({ 'content-type': 'application/json' }), payload: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('BAD_REQUEST');
  });

  it('a body over the limit -> 413 PAYLOAD_TOO_LARGE', async () => {
    const response = await app.inject({
      method: 'POST',
      url: LOGIN,
      headers: withXsrf({ 'content-type': 'application/json' }),
      payload: JSON.stringify({ padding: 'x'.repeat(BODY_LIMIT_BYTES) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than the 1 MB limit.' });
  });

  it('bad percent-encoding in the URL -> 400 JSON that does not echo the path', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/site-config-service/config/site/%E0%A4%A' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'BAD_REQUEST', message: 'The URL is not valid (bad percent-encoding).' });
  });

  it('an unknown page path -> 404 NOT_FOUND JSON', async () => {
    const response = await app.inject({ method: 'GET', url: '/nothing/here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'NOT_FOUND', message: 'GET /nothing/here does not exist.' });
  });
});

describe('a fault of the gateway itself', () => {
  it('answers 500 INTERNAL_ERROR with the correlation id and no internal detail', async () => {
    const faulty = await buildTestGateway();
    faulty.get('/api/test-only/fault', { config: { access: 'public' } }, async () => {
      throw new Error('connection string postgres://admin:hunter2@db');
    });
    const response = await faulty.inject({ method: 'GET', url: '/api/test-only/fault' });
    await faulty.close();
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      error: 'INTERNAL_ERROR',
      message: `An unexpected error occurred. Quote X-CID ${String(response.headers['x-cid'])} when reporting it.`,
    });
  });
});

describe('X-CID correlation id (SPEC §7, §8)', () => {
  const requests = [
    { method: 'GET', url: '/api/site-config-service/config/site/firstbank' },
    { method: 'GET', url: '/api/bin/aem/rest?version=9' },
    { method: 'GET', url: '/api/no-such-thing' },
    { method: 'POST', url: LOGIN, headers: withXsrf({ 'content-type': 'application/json' }), payload: '{' },
    { method: 'GET', url: '/api/site-config-service/config/site/%E0%A4%A' },
    { method: 'GET', url: '/' },
  ] as const;

  it.each(requests)('is on every response: $method $url', async (request) => {
    const response = await app.inject(request);
    expect(response.headers['x-cid']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('differs between requests', async () => {
    const first = await app.inject({ method: 'GET', url: '/api/no-such-thing' });
    const second = await app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(first.headers['x-cid']).not.toBe(second.headers['x-cid']);
  });

  it.each(requests)('reuses a well-formed incoming X-CID: $method $url', async (request) => {
    const response = await app.inject({ ...request, headers: { ...('headers' in request ? request.headers : {}), 'x-cid': 'Caller-Trace-0042' } });
    expect(response.headers['x-cid']).toBe('Caller-Trace-0042');
  });

  it.each([
    ['too short', 'abc'],
    ['markup', '<script>x</script>'],
    ['too long', 'a'.repeat(65)],
    ['a card number', '4111-1111-1111-1111'],
  ])('replaces an incoming X-CID that is %s', async (_case, incoming) => {
    const response = await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-cid': incoming } });
    expect(response.headers['x-cid']).not.toBe(incoming);
    expect(response.headers['x-cid']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
