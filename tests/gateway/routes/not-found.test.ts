import type { FastifyInstance } from 'fastify';
import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASES, buildTestGateway } from '../support/test-gateway';

/**
 * A path the gateway does not serve answers a JSON 404 NOT_FOUND naming the call, never HTML or a
 * bare 404. Every call of SPEC §7's table now has its route; their tests are beside their areas
 * (the declared calls of docs/decisions/0022-declared-calls.md in `tests/gateway/routes/declared-calls.test.ts`).
 */
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestGateway();
});
afterAll(() => app.close());

describe.each(API_BASES)('under %s', (base) => {
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
