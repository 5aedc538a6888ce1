import type { FastifyInstance, LightMyRequestResponse, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrate } from '../../../gateway/db/migrate';
import { openTestPglite } from '../support/database-legs';
import type { Database } from '../../../gateway/db/database';
import { buildGateway } from '../../../gateway/server';
import { insertUser } from '../support/test-browser';
import { realFixtures, TEST_XSRF_TOKEN } from '../support/test-gateway';

/**
 * The security suite's CSRF check (README "Set-up"): ADR 0008 "Sessions and CSRF", double submit. Every
 * state-changing call (POST, PUT, PATCH, DELETE) under /api and /gateway/api must carry
 * X-XSRF-TOKEN equal to the XSRF-TOKEN cookie, else 403 XSRF_TOKEN_MISSING / XSRF_TOKEN_INVALID and
 * nothing happens. The routes come from the running gateway (Fastify's onRoute), never a hand list,
 * and every call is made with a valid signed-in session, so only the XSRF pair is wrong.
 */

const routes = vi.hoisted(() => [] as { method: string; url: string; xsrfExempt: boolean }[]);

vi.mock('fastify', async (importOriginal) => {
  const original = await importOriginal<typeof import('fastify')>();
  const withRouteList = ((options: Parameters<typeof original.default>[0]) => {
    const app = original.default(options);
    app.addHook('onRoute', (route: RouteOptions) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url, xsrfExempt: route.config?.xsrfExempt === true });
    });
    return app;
  }) as typeof original.default;
  return { ...original, default: withRouteList };
});

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const API_BASE = /^\/(api|gateway\/api)\//;
const SITE_ID = 'eurobank';
const HOLDER = { email: 'csrf.holder@example.com', password: 'Csrf#Holder2026', siteId: SITE_ID };

/**
 * The documented exemptions: the test-mode hooks (gateway/features/development/test-support.ts, absent from the
 * production server; ADR 0008 "Test clock"), which the browser tests call outside any page.
 */
const EXEMPT_TEST_HOOKS = ['test-support/clock', 'test-support/fail-next', 'test-support/session'];
/**
 * The SAML assertion consumer service (docs/decisions/0028-sso-saml.md): the bank's identity provider page posts
 * the Response to it cross-site (HTTP-POST binding), so no XSRF header can come; the Response's signature and its
 * InResponseTo, spent once, are what it is checked by. The one exempt route a production gateway has.
 */
const EXEMPT_ASSERTION_CONSUMER = ['user-auth/saml/acs/:siteId'];
const exemptUrls = (hooks: readonly string[]) => ['/api/', '/gateway/api/'].flatMap((base) => hooks.map((hook) => `${base}${hook}`)).sort();
/**
 * Outside ADR 0008's scope (not under /api or /gateway/api): the test identity provider's picker
 * answer and token endpoint (ADR 0015), which hold no portal session; the token call comes from
 * the gateway itself, and the picker answers JSON only, which a cross-site form cannot send.
 */
const OUTSIDE_API_SCOPE = ['POST /test-idp/interactions/:interaction', 'POST /test-idp/token'];

function stateChanging(): { method: string; url: string; xsrfExempt: boolean }[] {
  const seen = new Set<string>();
  return routes.filter(({ method, url }) => {
    const key = `${method} ${url}`;
    if (seen.has(key) || !STATE_CHANGING.has(method)) return false;
    seen.add(key);
    return true;
  });
}

/** A concrete path for a route: the holder's site for `:siteId`, a plain value for any other parameter. */
function concretePath(url: string): string {
  return url.replace(/:siteId\b/g, SITE_ID).replace(/:[A-Za-z]+|\*/g, 'x1');
}

describe('CSRF: every state-changing call needs the XSRF pair (ADR 0008, SPEC §7)', () => {
  let db: Database;
  let app: FastifyInstance;
  let session = '';

  beforeAll(async () => {
    db = await openTestPglite();
    await migrate(db);
    await insertUser(db, HOLDER);
    app = await buildGateway({ db, fixtures: await realFixtures(), testMode: true });
    await app.ready();
    const signedIn = await app.inject({ method: 'POST', url: '/api/test-support/session', payload: { email: HOLDER.email, siteId: SITE_ID } });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    session = [signedIn.headers['set-cookie'] ?? []]
      .flat()
      .map((line) => line.split(';')[0])
      .filter((pair) => pair !== undefined && !pair.startsWith('XSRF-TOKEN='))
      .join('; ');
    expect(session).toMatch(/SESSION=[A-Za-z0-9_-]{43}/);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  const call = (method: string, url: string, xsrf: { cookie?: string; header?: string }, payload?: unknown): Promise<LightMyRequestResponse> =>
    app.inject({
      method: method as 'POST',
      url,
      headers: {
        cookie: [session, xsrf.cookie === undefined ? '' : `XSRF-TOKEN=${xsrf.cookie}`].filter(Boolean).join('; '),
        ...(xsrf.header === undefined ? {} : { 'x-xsrf-token': xsrf.header }),
      },
      payload: (payload ?? {}) as Record<string, unknown>,
    });

  it('the route list is the whole gateway, and the only routes the check skips are the documented ones', () => {
    const all = stateChanging();
    // Sanity: the hook saw both bases and the calls that matter most.
    expect(all.length).toBeGreaterThan(60);
    expect(all.map(({ method, url }) => `${method} ${url}`)).toEqual(
      expect.arrayContaining(['POST /api/user-auth/login', 'POST /gateway/api/user-attribute/user/assets', 'POST /api/user-mgmt/user/remove-account']),
    );
    const exempt = all
      .filter((route) => route.xsrfExempt)
      .map(({ url }) => url)
      .sort();
    expect(exempt).toEqual(exemptUrls([...EXEMPT_TEST_HOOKS, ...EXEMPT_ASSERTION_CONSUMER]));
    const outside = all
      .filter(({ url }) => !API_BASE.test(url))
      .map(({ method, url }) => `${method} ${url}`)
      .sort();
    expect(outside).toEqual(OUTSIDE_API_SCOPE);
  });

  it('the production gateway has no exempt route but the SAML assertion consumer, and no test hook', async () => {
    const before = routes.length;
    const production = await buildGateway({ db, fixtures: await realFixtures() });
    await production.ready();
    const built = routes.slice(before);
    await production.close();
    expect(built.length).toBeGreaterThan(60);
    expect(built.filter((route) => route.url.includes('/test-support/'))).toEqual([]);
    expect(
      built
        .filter((route) => route.xsrfExempt)
        .map(({ url }) => url)
        .sort(),
    ).toEqual(exemptUrls(EXEMPT_ASSERTION_CONSUMER));
  });

  it('refuses each one signed in with no X-XSRF-TOKEN header (403 XSRF_TOKEN_MISSING) and with a header that does not match the cookie (403 XSRF_TOKEN_INVALID)', async () => {
    const targets = stateChanging().filter((route) => API_BASE.test(route.url) && !route.xsrfExempt);
    expect(targets.length).toBeGreaterThan(60);
    const wrong: string[] = [];
    for (const { method, url } of targets) {
      const path = concretePath(url);
      const cases = [
        { name: 'no header', xsrf: { cookie: TEST_XSRF_TOKEN }, code: 'XSRF_TOKEN_MISSING' },
        { name: 'no cookie', xsrf: { header: TEST_XSRF_TOKEN }, code: 'XSRF_TOKEN_MISSING' },
        { name: 'mismatched header', xsrf: { cookie: TEST_XSRF_TOKEN, header: `${TEST_XSRF_TOKEN}x` }, code: 'XSRF_TOKEN_INVALID' },
      ];
      for (const { name, xsrf, code } of cases) {
        const response = await call(method, path, xsrf);
        const body = String(response.headers['content-type']).startsWith('application/json') ? response.json<{ error?: unknown; message?: unknown }>() : {};
        if (response.statusCode !== 403 || body.error !== code || typeof body.message !== 'string')
          wrong.push(`${method} ${path} (${name}): ${response.statusCode} ${response.body.slice(0, 120)}`);
      }
    }
    console.info(`CSRF: ${targets.length} state-changing routes × 3 refusals checked`);
    expect(wrong).toEqual([]);
  }, 120_000);

  it('a refused write changes nothing: the attributes and cards read back as before, and the same call with the pair goes through', async () => {
    const withPair = { cookie: TEST_XSRF_TOKEN, header: TEST_XSRF_TOKEN };
    const read = async () => ({
      attributes: (await call('GET', `/api/user-attribute/user/${SITE_ID}`, withPair)).json(),
      assets: (await call('GET', `/api/user-attribute/user/assets/${SITE_ID}`, withPair)).json(),
    });
    const before = await read();
    const save = { attributes: { marketing_opt_ins: { email: { optin: true } } } };
    const enrol = { siteId: SITE_ID, userAssetRequest: [{ assetType: 'PAN', value: '4111111111111111' }] };
    const forged = { cookie: TEST_XSRF_TOKEN, header: 'forged-by-another-origin' };

    expect((await call('POST', `/api/user-attribute/v2/user/${SITE_ID}`, forged, save)).statusCode).toBe(403);
    expect((await call('POST', '/api/user-attribute/user/assets', forged, enrol)).statusCode).toBe(403);
    expect((await call('POST', '/api/user-mgmt/user/remove-account', forged, { password: HOLDER.password })).statusCode).toBe(403);
    expect(await read()).toEqual(before);

    // The same calls with the pair do change things, so the read-back above could have seen a change.
    const saved = await call('POST', `/api/user-attribute/v2/user/${SITE_ID}`, withPair, save);
    expect(saved.statusCode, saved.body).toBe(200);
    const enrolled = await call('POST', '/api/user-attribute/user/assets', withPair, enrol);
    expect(enrolled.statusCode, enrolled.body).toBe(201);
    expect(await read()).not.toEqual(before);
  });
});
