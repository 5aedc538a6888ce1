import type { APIResponse, Browser, BrowserContext, Response } from 'playwright-core';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS } from '../../gateway/limits/sign-in-limits';
import { firstbankUser, registrationBody } from '../gateway/support/account-requests';
import { activateWithPassword, activationLink } from './support/account-helpers';
import { saveScreenshot } from './support/browser';
import { browserTest } from './support/browser-test';
import { cookieValue, endsOn } from './support/navigation';
import { INSTANCE_HEADER, portalPairSkipReason, startPortalPair, type InstanceLabel, type PortalPair } from './support/portal-pair';
import { advanceGatewayClock, newPasscode, outboxIds, outboxMessages } from './support/sign-in-helpers';

/**
 * The scale path (DESIGN "The real parts"): two gateway instances on PostgreSQL with their counters in Redis,
 * behind one round-robin port (tests/e2e/support/portal-pair.ts), prove the gateway keeps no state of its
 * own: requests alternate; a card holder registers, activates, signs in with a passcode, reads the profile
 * and adds a card with each step on the other instance than the one before; the ADR 0008 counters
 * (per IP, per account) count over both; an SSO sign-in started on one finishes on the other
 * (ADR 0015); the ADR 0012 account jobs queued by both run once each. Where a request went is read
 * from the instances' own logs by its X-CID, not only from the proxy.
 */
const SKIP_REASON = portalPairSkipReason();
if (SKIP_REASON !== undefined) console.warn(`scale-path.test.ts skipped: ${SKIP_REASON}`);

const run = Date.now().toString(36);
const PASSWORD = 'Sunny-Day-42';
const other = (label: InstanceLabel): InstanceLabel => (label === 'a' ? 'b' : 'a');

describe.skipIf(SKIP_REASON !== undefined)(
  SKIP_REASON === undefined ? 'scale path: two gateway instances, PostgreSQL and Redis, one port' : `scale path skipped: ${SKIP_REASON}`,
  () => {
    let pair: PortalPair;
    let browser: Browser;

    // The browser is the file's shared one (browser-test.ts); the gateways are the pair, so no `portal` is started.
    browserTest.beforeAll(async ({ browser: fileBrowser }) => {
      browser = fileBrowser;
      // TRUST_PROXY: the pair's proxy names the client, so each limit test counts its own address (README "Environment").
      pair = await startPortalPair({ GATEWAY_TEST_MODE: 'true', TRUST_PROXY: 'true' });
    });

    afterAll(async () => {
      const code = await pair?.stop();
      // Both instances shut down cleanly (SIGTERM: in-flight requests finished, pools and Redis closed).
      expect(code).toBe(0);
    });

    /**
     * The instance that answered: the proxy's header, confirmed by that instance's own log holding the
     * answer's X-CID (polled: a log line may be a moment behind the answer).
     */
    async function servedBy(headers: Record<string, string>): Promise<InstanceLabel> {
      const instance = headers[INSTANCE_HEADER] as InstanceLabel;
      const correlationId = headers['x-cid'] ?? '';
      expect(['a', 'b']).toContain(instance);
      expect(correlationId).toMatch(/^[A-Za-z0-9-]{8,64}$/);
      await expect.poll(() => pair.loggedBy(correlationId), { timeout: 5_000 }).toContain(instance);
      return instance;
    }

    /** A request context that has the XSRF cookie (ADR 0008 double submit) and sends it back, from `clientAddress`. */
    async function apiClient(
      context: BrowserContext,
      clientAddress: string,
    ): Promise<{ post: (path: string, options: { form?: Record<string, string>; data?: unknown; headers?: Record<string, string> }) => Promise<APIResponse> }> {
      const forwarded = { 'x-forwarded-for': clientAddress };
      await context.request.get(`${pair.baseUrl}/api/site-config-service/config/site/firstbank`, { headers: forwarded });
      const xsrf = await cookieValue(context, pair.baseUrl, 'XSRF-TOKEN');
      expect(xsrf).toBeDefined();
      return {
        post: (path, options) =>
          context.request.post(`${pair.baseUrl}${path}`, { ...options, headers: { ...forwarded, 'x-xsrf-token': xsrf ?? '', ...options.headers } }),
      };
    }

    it('consecutive requests alternate between the instances, and each instance logged the ones it served', async () => {
      const served: InstanceLabel[] = [];
      for (let call = 0; call < 6; call += 1) {
        const response = await fetch(`${pair.baseUrl}/api/site-config-service/config/site/firstbank`);
        expect(response.status).toBe(200);
        const instance = await servedBy(Object.fromEntries(response.headers));
        // A fresh X-CID each time: only the instance that answered logged it.
        expect(pair.loggedBy(response.headers.get('x-cid') ?? '')).toEqual([instance]);
        served.push(instance);
      }
      for (let call = 1; call < served.length; call += 1) expect(served[call]).toBe(other(served[call - 1]!));
    });

    it(
      'firstbank in Chromium: register → activation link → passcode sign-in → profile read → card add, each step on the other instance',
      { timeout: 120_000 },
      async () => {
        const email = `scale.${run}@example.com`;
        const context = await browser.newContext();
        const page = await context.newPage();
        const url = (route: string) => `${pair.baseUrl}/firstbank/en_us/account/${route}`;
        const steps: { step: string; expected: InstanceLabel; served: Promise<InstanceLabel> }[] = [];
        /** The next `method path` goes to `instance`; the step is checked against that instance's log. */
        const onInstance = (step: string, instance: InstanceLabel, method: string, path: RegExp) => {
          pair.steerNext((requestMethod, requestPath) => requestMethod === method && path.test(requestPath), instance);
          const answered = page.waitForResponse((response: Response) => response.request().method() === method && path.test(new URL(response.url()).pathname), {
            timeout: 30_000,
          });
          steps.push({ step, expected: instance, served: answered.then((response) => servedBy(response.headers())) });
        };

        // Registration (SPEC §2 registration → add-pan → check e-mail); the card comes later, from the profile.
        await page.goto(url('registration'));
        await page.locator('#root_first_name').fill('Alex');
        await page.locator('#root_last_name').fill('Morgan');
        await page.locator('#root_email').fill(email);
        await page.locator('#root_password').fill(PASSWORD);
        await page.locator('#root_confirm_password').fill(PASSWORD);
        // SPEC §5 dob parts in firstbank's order: the first part carries the field's own id.
        await page.locator('#root_dob').fill('04');
        await page.locator('#root_dob_dd').fill('12');
        await page.locator('#root_dob_yyyy').fill('1988');
        await page.locator('#root_nationalId').fill('501234567');
        await page.locator('#root_ninedigitbin').fill('412345678');
        await page.locator('#root_phone').fill('2125550123');
        await page.locator('#root_pp').check();
        await page.locator('.site-form button[type="submit"]').first().click();
        await endsOn(page, 'add-pan');
        const seen = await outboxIds(context.request, pair.baseUrl, email);
        onInstance('registration', 'a', 'POST', /^\/api\/user-mgmt\/user\/registration$/);
        await page.getByRole('button', { name: 'Create account', exact: true }).click();
        await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();

        // The activation link, mailed by whichever instance ran the job, read through the proxy from the shared outbox.
        const link = await activationLink(context.request, pair.baseUrl, email, seen);
        expect(new URL(link).origin).toBe(pair.baseUrl);
        onInstance('activation', 'b', 'POST', /^\/api\/user-mgmt\/user\/activate-token$/);
        await activateWithPassword(page, link, PASSWORD);
        await page.getByText('Your account is active. You can sign in now.').waitFor();

        // Sign-in: the password on one instance, the passcode (stored by it, mailed to the shared outbox) checked on the other.
        const codesSeen = await outboxIds(context.request, pair.baseUrl, email);
        onInstance('password', 'a', 'POST', /^\/api\/user-auth\/login$/);
        await page.goto(url('login-form'));
        await page.locator('#root_username').fill(email);
        await page.locator('#root_password').fill(PASSWORD);
        await page.locator('.site-form button[type="submit"]').first().click();
        await endsOn(page, 'login-otp');
        const code = await newPasscode(context.request, pair.baseUrl, email, codesSeen);
        onInstance('passcode', 'b', 'POST', /^\/api\/user-auth\/login$/);
        onInstance('profile read', 'a', 'GET', /^\/api\/user-attribute\/(v2\/)?user\/firstbank$/);
        await page.locator('#root_otp').fill(code);
        await page.locator('.site-form button[type="submit"]').first().click();
        await endsOn(page, 'profile');
        // The profile shows what the registration stored, read on the other instance than the one that checked the passcode.
        await expect.poll(() => page.locator('main').textContent(), { timeout: 15_000 }).toContain(email);
        await saveScreenshot(page, 'scale-path-profile');

        // A card added on the session the other instance opened (SPEC §2 edit-pan, its card capture block).
        onInstance('card add', 'b', 'POST', /^\/api\/user-attribute\/user\/assets$/);
        await page.goto(url('edit-pan'));
        await page.locator('input[name="pan"]').fill('4012 8888 8888 1881');
        await page.getByRole('button', { name: 'Add card' }).click();
        await page.getByText('Your card has been added.').waitFor();
        await expect.poll(() => page.locator('.card-rows .card-row__number').allTextContents()).toEqual([expect.stringContaining('XXXX XXXX XXXX 1881')]);
        await saveScreenshot(page, 'scale-path-card-added');

        const landed = await Promise.all(steps.map(async ({ step, served }) => ({ step, instance: await served })));
        expect(landed).toEqual(steps.map(({ step, expected }) => ({ step, instance: expected })));
        await context.close();
      },
    );

    it(`ADR 0008 account lock: ${SIGN_IN_LIMITS.passwordFailuresPerAccount} wrong passwords spread over both instances lock it at the ${SIGN_IN_LIMITS.passwordFailuresPerAccount}th, on both, counted in Redis under the pair's prefix`, async () => {
      const context = await browser.newContext();
      const client = await apiClient(context, '198.51.100.10');
      const login = (password: string) =>
        client.post('/api/user-auth/login', { form: { username: 'mariam.alkuwari@example.com', password, grant_type: 'password', siteId: 'dohabank' } });
      const answers: { status: number; code: string; instance: InstanceLabel }[] = [];
      for (let attempt = 1; attempt <= SIGN_IN_LIMITS.passwordFailuresPerAccount; attempt += 1) {
        const response = await login(`Wrong!Password${attempt}`);
        answers.push({ status: response.status(), code: ((await response.json()) as { error: string }).error, instance: await servedBy(response.headers()) });
      }
      expect(answers.map(({ status, code }) => `${status} ${code}`)).toEqual([
        ...Array<string>(SIGN_IN_LIMITS.passwordFailuresPerAccount - 1).fill('401 BAD_CREDENTIALS'),
        '423 USER_LOCKED',
      ]);
      expect(new Set(answers.map(({ instance }) => instance))).toEqual(new Set(['a', 'b']));
      // Neither instance alone saw the limit: the count was shared.
      for (const label of ['a', 'b'] as const)
        expect(answers.filter(({ instance }) => instance === label).length).toBeLessThan(SIGN_IN_LIMITS.passwordFailuresPerAccount);

      // The right password is refused on both instances while the lock holds.
      const refusedOn = new Set<InstanceLabel>();
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const response = await login('Doha!Rewards7');
        expect(response.status()).toBe(423);
        expect(((await response.json()) as { error: string }).error).toBe('USER_LOCKED');
        refusedOn.add(await servedBy(response.headers()));
      }
      expect(refusedOn).toEqual(new Set(['a', 'b']));

      const redis = new Redis(process.env.TEST_REDIS_URL ?? '', { maxRetriesPerRequest: 1 });
      try {
        expect(await redis.keys(`${pair.redisKeyPrefix}lock:account:*`)).toHaveLength(1);
      } finally {
        await redis.quit();
      }
      await context.close();
    });

    it(`ADR 0008 per-IP limit: ${SIGN_IN_LIMITS.signInCallsPerIp} sign-in calls from one address over both instances, then 429 RATE_LIMITED from either until the window ends on both`, async () => {
      const context = await browser.newContext();
      const client = await apiClient(context, '198.51.100.20');
      const served: InstanceLabel[] = [];
      // The per-IP count comes before the form is read (ADR 0008), so empty forms count without an argon2 check each.
      for (let call = 0; call < SIGN_IN_LIMITS.signInCallsPerIp; call += 1) {
        const response = await client.post('/api/user-auth/login', { form: { grant_type: 'password' } });
        expect(response.status()).toBe(400);
        served.push(response.headers()[INSTANCE_HEADER] as InstanceLabel);
      }
      expect(served.filter((label) => label === 'a').length).toBe(SIGN_IN_LIMITS.signInCallsPerIp / 2);
      for (let call = 0; call < 2; call += 1) {
        const refused = await client.post('/api/user-auth/login', { form: { grant_type: 'password' } });
        expect(refused.status()).toBe(429);
        expect(((await refused.json()) as { error: string }).error).toBe('RATE_LIMITED');
        expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);
      }
      // Another address is not limited: the count is per client, seen through the proxy.
      const elsewhere = await apiClient(context, '198.51.100.21');
      expect((await elsewhere.post('/api/user-auth/login', { form: { grant_type: 'password' } })).status()).toBe(400);

      // The window ends on the gateway clock: the pair's proxy moves the test clock of both instances, so both let the address in again.
      await advanceGatewayClock(context, pair.baseUrl, SIGN_IN_LIMITS.signInCallsWindowMs / 1000 + 1);
      const againOn = new Set<string>();
      for (let call = 0; call < 2; call += 1) {
        const again = await client.post('/api/user-auth/login', { form: { grant_type: 'password' } });
        expect(again.status()).toBe(400);
        againOn.add(again.headers()[INSTANCE_HEADER] ?? '');
      }
      expect(againOn).toEqual(new Set(['a', 'b']));
      await context.close();
    });

    it('ADR 0015: an SSO sign-in started on one instance finishes on the other', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const started = page.waitForResponse(
        (response) => response.request().method() === 'GET' && new URL(response.url()).pathname === '/api/user-auth/oidc/authorize',
        { timeout: 20_000 },
      );
      pair.steerNext((method, path) => method === 'GET' && path === '/api/user-auth/oidc/authorize', 'a');
      await page.goto(`${pair.baseUrl}/unionbank/en_us/account/profile`);
      await endsOn(page, 'redirect-sso');
      await page.getByRole('button', { name: 'Continue to Smile' }).click();
      await endsOn(page, 'sso-simulator');
      expect(await servedBy((await started).headers())).toBe('a');

      await page.getByRole('radio', { name: 'Grace Villanueva (grace.villanueva@example.com)' }).check();
      const finished = page.waitForResponse(
        (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/user-auth/oidc/authorize',
        { timeout: 20_000 },
      );
      pair.steerNext((method, path) => method === 'POST' && path === '/api/user-auth/oidc/authorize', 'b');
      await page.getByRole('button', { name: 'Sign in as this person' }).click();
      // Signed in on the page the visitor asked for (ADR 0015), by the session instance b opened.
      await endsOn(page, 'profile');
      await expect.poll(() => page.locator('main').textContent(), { timeout: 15_000 }).toContain('grace.villanueva@example.com');
      const finish = await finished;
      expect(finish.status()).toBe(200);
      expect(await servedBy(finish.headers())).toBe('b');
      expect(await cookieValue(context, pair.baseUrl, 'gmap_authenticated')).toBe('true');
      await saveScreenshot(page, 'scale-path-sso-signed-in');
      await context.close();
    });

    it('ADR 0012: registrations answered by both instances each run their account job once (one account, one mail), the queue then empty', async () => {
      const context = await browser.newContext();
      const client = await apiClient(context, '198.51.100.30');
      const emails = Array.from({ length: 8 }, (_, index) => `job${index}.${run}@example.com`);
      const answers = await Promise.all(
        emails.map((email) =>
          client.post('/api/user-mgmt/user/registration', {
            data: registrationBody(firstbankUser({ email })),
            headers: { 'x-hcaptcha-token': 'test-captcha-token' },
          }),
        ),
      );
      expect(answers.map((answer) => answer.status())).toEqual(emails.map(() => 202));
      expect(new Set(answers.map((answer) => answer.headers()[INSTANCE_HEADER]))).toEqual(new Set(['a', 'b']));

      const mailsTo = async (email: string) => (await outboxMessages(context.request, pair.baseUrl, email)).length;
      for (const email of emails) await expect.poll(() => mailsTo(email), { timeout: 15_000 }).toBe(1);
      // Past a poll of both instances (ADR 0012: every 5 s), nothing ran a second time.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(await Promise.all(emails.map(mailsTo))).toEqual(emails.map(() => 1));

      const db = new pg.Client({ connectionString: pair.databaseUrl });
      await db.connect();
      try {
        const accounts = await db.query<{ email: string; n: number }>(
          'select email, count(*)::int as n from users where email = any($1) group by email order by email',
          [emails],
        );
        expect(accounts.rows).toEqual([...emails].sort().map((email) => ({ email, n: 1 })));
        expect((await db.query<{ n: number }>('select count(*)::int as n from account_jobs')).rows[0]?.n).toBe(0);
      } finally {
        await db.end();
      }
      await context.close();
    });
  },
);
