import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS } from '../../../gateway/limits/sign-in-limits';
import { buildGateway } from '../../../gateway/server';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';
import { realFixtures, stubDatabase } from '../support/test-gateway';

/**
 * README "Metrics", docs/decisions/0026-metrics-and-admin-command.md: `/metrics` in the Prometheus text format,
 * for the bearer of METRICS_TOKEN only, absent without one; the series an operator watches, labelled by route
 * pattern, status, kind and code, never by anything that names a person.
 */
const TOKEN = 'metrics-token-0123456789abcdef0123456789';
const LUKAS = { email: 'lukas.metrics@example.com', password: 'Eurobank&Sicher9', siteId: 'eurobank' };

describe('GET /metrics without METRICS_TOKEN', () => {
  it('is not there at all (404 in our error shape), under the page root or the API bases', async () => {
    const app = await buildGateway({ db: stubDatabase, fixtures: await realFixtures(), mode: 'production' });
    for (const url of ['/metrics', '/api/metrics', '/gateway/api/metrics']) {
      const response = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ error: 'NOT_FOUND' });
    }
    await app.close();
  });
});

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let browser: TestBrowser;
  let userId: string;
  beforeEach(async () => {
    gateway = await openSignInGateway(leg, { metricsToken: TOKEN });
    userId = await insertUser(gateway.test.db, LUKAS);
    browser = await new TestBrowser(gateway.app).open();
  });
  afterEach(() => gateway.dispose());

  const scrape = (authorization?: string) =>
    gateway.app.inject({ method: 'GET', url: '/metrics', headers: authorization === undefined ? {} : { authorization } });

  it('refuses a request without the token, with a wrong one, and with a signed-in session: 401 UNAUTHENTICATED in our error shape', async () => {
    const signedIn = await browser.login({ username: LUKAS.email, password: LUKAS.password, siteId: LUKAS.siteId });
    expect(signedIn.statusCode).toBe(200);
    const refusals = [
      await scrape(),
      await scrape(`Bearer ${TOKEN}x`),
      await scrape(`Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`),
      await scrape(TOKEN),
      // A card holder's session cookie is no operator's token.
      await browser.call({ method: 'GET', url: '../metrics' }),
    ];
    for (const response of refusals) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: 'UNAUTHENTICATED' });
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expect(response.body).not.toContain('gateway_http_requests_total');
    }
  });

  it('carries requests and latencies by route pattern and status, sign-in outcomes and lockouts, jobs, database and counter store, with no e-mail, id or raw URL in a label', async () => {
    // A success, wrong passwords up to the account's lock, a read at a URL naming the site, and a URL nobody serves.
    expect((await browser.login({ username: LUKAS.email, password: LUKAS.password, siteId: LUKAS.siteId })).statusCode).toBe(200);
    expect((await browser.call({ method: 'GET', url: `user-attribute/user/${LUKAS.siteId}` })).statusCode).toBe(200);
    for (let attempt = 0; attempt < SIGN_IN_LIMITS.passwordFailuresPerAccount; attempt += 1)
      await browser.login({ username: LUKAS.email, password: 'Wrong#Password1', siteId: LUKAS.siteId });
    await gateway.app.inject({ method: 'GET', url: `/api/no-such-call/${userId}?email=${encodeURIComponent(LUKAS.email)}` });
    // A job kept after its last attempt (README "Dropped jobs").
    await gateway.test.db.query(
      `insert into account_jobs (kind, payload, attempts, run_after, created_at, dropped_at, drop_reason) values ('recovery-code', $1, 5, $2, $2, $2, 'Error')`,
      [JSON.stringify({ email: LUKAS.email }), gateway.clock.now()],
    );

    const response = await scrape(`Bearer ${TOKEN}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers['cache-control']).toBe('no-store');
    const text = response.body;
    expect(text).toContain('gateway_http_requests_total{method="GET",route="/api/user-attribute/user/:siteId",status="200"} 1');
    expect(text).toMatch(/gateway_http_request_duration_seconds_bucket\{le="[^"]+",method="GET",route="\/api\/user-attribute\/user\/:siteId",status="200"\} 1/);
    expect(text).toContain('gateway_http_requests_total{method="GET",route="unmatched",status="404"} 1');
    expect(text).toContain('gateway_sign_ins_total{route="/api/user-auth/login",outcome="ok"} 1');
    expect(text).toMatch(/gateway_sign_ins_total\{route="\/api\/user-auth\/login",outcome="BAD_CREDENTIALS"\} [1-9]/);
    expect(text).toContain('gateway_sign_ins_total{route="/api/user-auth/login",outcome="USER_LOCKED"} 1');
    expect(text).toContain('gateway_sign_in_lockouts_total{lock="account"} 1');
    expect(text).toContain('gateway_account_jobs{state="dropped"} 1');
    expect(text).toContain('gateway_account_jobs{state="due"} 0');
    expect(text).toMatch(/^gateway_account_job_oldest_age_seconds \d/m);
    expect(text).toMatch(/^# TYPE gateway_account_job_retries_total counter/m);
    expect(text).toMatch(/^# TYPE gateway_account_jobs_dropped_total counter/m);
    expect(text).toContain('gateway_database_up 1');
    expect(text).toContain('gateway_counter_store_up{store="in-process"} 1');
    if (gateway.test.db.kind === 'postgres') expect(text).toMatch(/gateway_database_pool_connections\{state="total"\} [1-9]/);
    // Nothing that names a person, an account, or the URL as asked.
    const labels = [...text.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]).join('\n');
    for (const personal of [LUKAS.email, encodeURIComponent(LUKAS.email), 'lukas', userId, '/api/user-attribute/user/eurobank', 'no-such-call'])
      expect(labels).not.toContain(personal);
    expect(labels).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  });
});
