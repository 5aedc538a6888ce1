import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryOutbox } from '../../../gateway/mail/memory-outbox';
import { buildGateway } from '../../../gateway/server';
import { AdjustableClock } from '../../../gateway/time/clock';
import { describeEachDatabase, type TestDatabase } from '../support/database-legs';
import { API_BASES, realFixtures, stubDatabase } from '../support/test-gateway';

/**
 * ADR 0018: what a production-mode gateway leaves out (the outbox reader, the test identity
 * provider) and that every cookie it sets is Secure, even when the last hop is plain HTTP. The real
 * process's refusals and start are in tests/gateway/main.test.ts.
 */
const CODE_MAIL = { channel: 'email', to: 'emily@example.com', subject: 'Your passcode', text: 'Your passcode is 123456.' } as const;

const TEST_IDP_CALLS = [
  { method: 'GET', url: '/test-idp/.well-known/openid-configuration' },
  { method: 'GET', url: '/test-idp/jwks' },
  { method: 'GET', url: '/test-idp/authorize?response_type=code&client_id=unionbank-rewards-portal' },
  { method: 'GET', url: `/test-idp/interactions/${'a'.repeat(43)}` },
  { method: 'POST', url: `/test-idp/interactions/${'a'.repeat(43)}`, payload: { subject: 'anyone' } },
  { method: 'POST', url: '/test-idp/token', payload: 'grant_type=authorization_code&code=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
] as const;

function cookieLines(setCookie: string | string[] | undefined): string[] {
  return Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie];
}

async function gatewayWithOutbox(mode: 'development' | 'production'): Promise<FastifyInstance> {
  const clock = new AdjustableClock();
  const outbox = new MemoryOutbox(clock);
  await outbox.send(CODE_MAIL);
  return buildGateway({ db: stubDatabase, fixtures: await realFixtures(), auth: { clock, devOutbox: outbox }, mode });
}

describe('a production-mode gateway (ADR 0018)', () => {
  it('has no outbox reader on either API base, even with an outbox holding a passcode', async () => {
    const production = await gatewayWithOutbox('production');
    for (const base of API_BASES) {
      const response = await production.inject({ method: 'GET', url: `${base}/dev-outbox/messages?to=emily%40example.com` });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('123456');
    }
    await production.close();

    const development = await gatewayWithOutbox('development');
    expect((await development.inject({ method: 'GET', url: '/api/dev-outbox/messages?to=emily%40example.com' })).json().messages).toHaveLength(1);
    await development.close();
  });

  it('has no test identity provider: discovery, keys, authorization, the identity picker and the token endpoint answer 404', async () => {
    const production = await buildGateway({ db: stubDatabase, fixtures: await realFixtures(), mode: 'production' });
    for (const call of TEST_IDP_CALLS) expect((await production.inject(call)).statusCode, `${call.method} ${call.url}`).toBe(404);
    await production.close();

    const development = await buildGateway({ db: stubDatabase, fixtures: await realFixtures() });
    expect((await development.inject(TEST_IDP_CALLS[0])).statusCode).toBe(200);
    await development.close();
  });

  it('sets the XSRF cookie Secure on a plain-HTTP request; development does so only over HTTPS', async () => {
    const production = await buildGateway({ db: stubDatabase, fixtures: await realFixtures(), mode: 'production' });
    const line = cookieLines((await production.inject({ method: 'GET', url: '/api/health' })).headers['set-cookie']).find((cookie) =>
      cookie.startsWith('XSRF-TOKEN='),
    );
    expect(line).toMatch(/; Secure$/);
    await production.close();

    const development = await buildGateway({ db: stubDatabase, fixtures: await realFixtures() });
    expect(cookieLines((await development.inject({ method: 'GET', url: '/api/health' })).headers['set-cookie']).join('\n')).not.toContain('Secure');
    await development.close();
  });
});

describeEachDatabase((leg) => {
  let test: TestDatabase;
  let app: FastifyInstance;
  beforeEach(async () => {
    test = await leg.openMigrated();
    // The test-support hook only mints the session (production never has it: main.ts refuses GATEWAY_TEST_MODE there); the cookies are the sign-in's own.
    app = await buildGateway({ db: test.db, fixtures: await realFixtures(), testMode: true, mode: 'production' });
  });
  afterEach(async () => {
    await app.close();
    await test.dispose();
  });

  it('production sets every session cookie Secure over plain HTTP, and expires them Secure at logout', async () => {
    const inserted = await test.db.query<{ id: string }>(
      `insert into users (email, password_hash, first_name, last_name, dob, title, status, roles)
       values ('emily@example.com', 'not-a-real-hash', 'Emily', 'Carter', '1988-04-12', 'Ms', 'ACTIVE', $1) returning id`,
      [['ROLE_CARDHOLDER']],
    );
    await test.db.query('insert into user_sites (user_id, site_id) values ($1, $2)', [inserted.rows[0]!.id, 'firstbank']);
    const signedIn = await app.inject({ method: 'POST', url: '/api/test-support/session', payload: { email: 'emily@example.com', siteId: 'firstbank' } });
    const lines = cookieLines(signedIn.headers['set-cookie']);
    expect(lines.map((line) => line.slice(0, line.indexOf('=')))).toEqual(
      expect.arrayContaining(['SESSION', 'gmap_authenticated', 'gmap_user_type', 'XSRF-TOKEN']),
    );
    for (const line of lines) expect(line).toMatch(/; Secure$|; Secure;/);

    const cookie = lines.map((line) => line.split(';')[0]).join('; ');
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec(cookie)?.[1] ?? '';
    const loggedOut = await app.inject({ method: 'POST', url: '/api/user-auth/tokens/revoke', headers: { cookie, 'x-xsrf-token': xsrf }, payload: 'null' });
    expect(loggedOut.statusCode).toBeLessThan(300);
    const expired = cookieLines(loggedOut.headers['set-cookie']);
    expect(expired.some((line) => line.startsWith('SESSION=;'))).toBe(true);
    for (const line of expired) expect(line).toContain('; Secure');
  });
});
