import type { FastifyInstance, LightMyRequestResponse, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RouteAccess } from '../../../gateway/http/route-access';
import { buildGateway } from '../../../gateway/server';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser } from '../support/test-browser';
import { realFixtures, stubDatabase, TEST_XSRF_TOKEN } from '../support/test-gateway';

/**
 * docs/decisions/0017-threat-model.md "Declared access": every route the gateway registers says who
 * may call it, one hook enforces it, and every route that is not public is bound to the session's
 * site. The routes come from the running gateway (Fastify's onRoute), never a hand list, so a route
 * added tomorrow is walked too.
 */

interface WalkedRoute {
  method: string;
  url: string;
  access: RouteAccess | undefined;
  bodyNamesSite: boolean;
}

const routes = vi.hoisted(() => [] as WalkedRoute[]);

vi.mock('fastify', async (importOriginal) => {
  const original = await importOriginal<typeof import('fastify')>();
  const withRouteList = ((options: Parameters<typeof original.default>[0]) => {
    const app = original.default(options);
    app.addHook('onRoute', (route: RouteOptions) => {
      const body = (route.schema?.body ?? {}) as { properties?: Record<string, unknown> };
      for (const method of [route.method].flat()) {
        routes.push({ method, url: route.url ?? '', access: route.config?.access, bodyNamesSite: body.properties?.siteId !== undefined });
      }
    });
    return app;
  }) as typeof original.default;
  return { ...original, default: withRouteList };
});

const HOME = 'firstbank';
const OTHER = 'eurobank';
const HOLDER = { email: 'home.holder@example.com', password: 'Home#Holder2026', siteId: HOME };
const AGENT = { email: 'home.agent@example.com', password: 'Home#Agent2026', siteId: HOME, roles: ['ROLE_CONCIERGE'] };
const OTHER_HOLDER = { email: 'other.holder@example.com', password: 'Other#Holder2026', siteId: OTHER };

/** The walked routes once each, HEAD (Fastify's copy of each GET) left out. */
function uniqueRoutes(): WalkedRoute[] {
  const seen = new Set<string>();
  return routes.filter(({ method, url }) => {
    const key = `${method} ${url}`;
    if (seen.has(key) || method === 'HEAD') return false;
    seen.add(key);
    return true;
  });
}

/** A concrete path: `siteId` for `:siteId`, a plain value for any other parameter. */
function concretePath(url: string, siteId: string): string {
  return url.replace(/:siteId\b/g, siteId).replace(/:[A-Za-z]+|\*/g, 'x1');
}

/** The kinds of access that serve a caller without a session. */
const PUBLIC_KINDS: ReadonlySet<string | undefined> = new Set(['public', 'public-site-bound']);

describe('every route declares its access (ADR 0017)', () => {
  it('the gateway registers no route without a declaration, and each declaration is one of the six kinds', async () => {
    routes.length = 0;
    const app = await buildGateway({
      db: stubDatabase,
      fixtures: await realFixtures(),
      testMode: true,
      siteGallery: true,
      metricsToken: 'metrics-token-0123456789abcdef0123456789',
    });
    await app.ready();
    const all = uniqueRoutes();
    expect(all.length).toBeGreaterThan(60);
    expect(all.filter((route) => route.access === undefined).map((route) => `${route.method} ${route.url}`)).toEqual([]);
    expect(new Set(all.map((route) => route.access))).toEqual(new Set(['public', 'public-site-bound', 'signed-in', 'cardholder', 'agent', 'operator']));
    await app.close();
  });

  it('a route added without a declaration stops the gateway from being built', async () => {
    const app = await buildGateway({ db: stubDatabase, fixtures: await realFixtures(), testMode: true });
    expect(() => app.get('/api/forgotten', async () => ({ open: true }))).toThrow(/GET \/api\/forgotten declares no access/);
    expect(() => app.get('/api/misspelt', { config: { access: 'everyone' as RouteAccess } }, async () => ({}))).toThrow(/declares no access/);
    await app.close();
  });

  it('a signed-in route registered outside the enforcing scope stops the gateway too', async () => {
    const app = await buildGateway({ db: stubDatabase, fixtures: await realFixtures(), testMode: true });
    expect(() => app.get('/outside', { config: { access: 'signed-in' } }, async () => ({}))).toThrow(/registered outside the scope that enforces access/);
    await app.close();
  });
});

describeEachDatabase((leg) => {
  describe('sessions are bound to their site and access is enforced on every route (ADR 0017)', () => {
    let gateway: SignInGateway;
    let app: FastifyInstance;
    const session: Record<'holder' | 'agent', string> = { holder: '', agent: '' };
    let otherHolderId = '';

    const signIn = async (email: string, siteId: string): Promise<string> => {
      const response = await app.inject({ method: 'POST', url: '/api/test-support/session', payload: { email, siteId } });
      expect(response.statusCode, response.body).toBe(200);
      return [response.headers['set-cookie'] ?? []]
        .flat()
        .map((line) => line.split(';')[0])
        .filter((pair) => pair?.startsWith('SESSION='))
        .join('');
    };

    const call = (method: string, url: string, options: { cookie?: string; siteHeader?: string; json?: unknown } = {}): Promise<LightMyRequestResponse> => {
      const cookie = [options.cookie, `XSRF-TOKEN=${TEST_XSRF_TOKEN}`].filter(Boolean).join('; ');
      const headers: Record<string, string> = { cookie, 'x-xsrf-token': TEST_XSRF_TOKEN };
      if (options.siteHeader !== undefined) headers['x-site-id'] = options.siteHeader;
      const json = options.json ?? (method === 'GET' ? undefined : {});
      return app.inject({
        method: method as 'GET',
        url,
        headers: json === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        ...(json === undefined ? {} : { payload: JSON.stringify(json) }),
      });
    };

    const otherSiteRows = async () => {
      const result = await gateway.test.db.query<{ profiles: number; cards: number; audits: number }>(
        `select (select count(*)::int from user_sites where site_id = $1) as profiles,
                (select count(*)::int from assets where site_id = $1) as cards,
                (select count(*)::int from concierge_audit) as audits`,
        [OTHER],
      );
      return result.rows[0];
    };

    beforeAll(async () => {
      routes.length = 0;
      gateway = await openSignInGateway(leg);
      app = gateway.app;
      await app.ready();
      await insertUser(gateway.test.db, HOLDER);
      await insertUser(gateway.test.db, AGENT);
      otherHolderId = await insertUser(gateway.test.db, OTHER_HOLDER);
      session.holder = await signIn(HOLDER.email, HOME);
      session.agent = await signIn(AGENT.email, HOME);
    }, 60_000);
    afterAll(() => gateway?.dispose());

    /** The routes that need a session: `public-site-bound` serves anyone (its site binding: routes/declared-calls.test.ts). */
    const guarded = () => uniqueRoutes().filter((route) => !PUBLIC_KINDS.has(route.access) && route.url.startsWith('/api/'));

    it('walks the guarded routes of both API bases', () => {
      expect(guarded().length).toBeGreaterThan(20);
      expect(uniqueRoutes().filter((route) => !PUBLIC_KINDS.has(route.access) && !/^\/(gateway\/)?api\//.test(route.url))).toEqual([]);
    });

    it('anonymous: every guarded route answers 401 UNAUTHENTICATED', async () => {
      for (const route of guarded()) {
        const response = await call(route.method, concretePath(route.url, HOME));
        expect({ route: `${route.method} ${route.url}`, status: response.statusCode, code: response.json().error }).toEqual({
          route: `${route.method} ${route.url}`,
          status: 401,
          code: 'UNAUTHENTICATED',
        });
      }
    });

    it('a card holder of this site, on another site (path, query or X-SITE-ID), is refused 403 SITE_MISMATCH on every guarded route, and nothing of that site changes', async () => {
      const before = await otherSiteRows();
      for (const route of guarded().filter((candidate) => candidate.access !== 'agent')) {
        const named = route.url.includes(':siteId') ? concretePath(route.url, OTHER) : `${concretePath(route.url, HOME)}?siteId=${OTHER}`;
        const byPathOrQuery = await call(route.method, named, { cookie: session.holder });
        const byHeader = await call(route.method, concretePath(route.url, HOME), { cookie: session.holder, siteHeader: OTHER });
        for (const [how, response] of [
          ['path or query', byPathOrQuery],
          ['X-SITE-ID', byHeader],
        ] as const) {
          expect({ route: `${route.method} ${route.url}`, how, status: response.statusCode, code: response.json().error }).toEqual({
            route: `${route.method} ${route.url}`,
            how,
            status: 403,
            code: 'SITE_MISMATCH',
          });
        }
      }
      expect(await otherSiteRows()).toEqual(before);
    });

    it('a body naming another site is refused 403 SITE_MISMATCH (card enrolment, whole-site saves), and nothing of that site changes', async () => {
      const before = await otherSiteRows();
      const withSiteInBody = guarded().filter((route) => route.bodyNamesSite && route.access !== 'agent');
      expect(withSiteInBody.length).toBeGreaterThan(1);
      for (const route of withSiteInBody) {
        const response = await call(route.method, concretePath(route.url, HOME), {
          cookie: session.holder,
          json: { siteId: OTHER, attributes: { first_name: 'Mallory' }, version: 0, userAssetRequest: [{ assetType: 'PAN', value: '4111 1111 1111 1111' }] },
        });
        expect({ route: route.url, status: response.statusCode, code: response.json().error }).toEqual({
          route: route.url,
          status: 403,
          code: 'SITE_MISMATCH',
        });
      }
      expect(await otherSiteRows()).toEqual(before);
    });

    it('an agent is refused every card holder route (403 CONCIERGE_NOT_ALLOWED); a card holder every agent route (403 NOT_CONCIERGE)', async () => {
      for (const route of guarded().filter((candidate) => candidate.access === 'cardholder' || candidate.access === 'agent')) {
        const asWrongKind = await call(route.method, concretePath(route.url, HOME), { cookie: route.access === 'cardholder' ? session.agent : session.holder });
        const expected = route.access === 'cardholder' ? 'CONCIERGE_NOT_ALLOWED' : 'NOT_CONCIERGE';
        expect({ route: `${route.method} ${route.url}`, status: asWrongKind.statusCode, code: asWrongKind.json().error }).toEqual({
          route: `${route.method} ${route.url}`,
          status: 403,
          code: expected,
        });
      }
    });

    it("an agent of this site, on another site, is refused 403 SITE_MISMATCH on every agent route, and cannot act for that site's card holders", async () => {
      const before = await otherSiteRows();
      for (const route of guarded().filter((candidate) => candidate.access === 'agent' || candidate.access === 'signed-in')) {
        const named = route.url.includes(':siteId') ? concretePath(route.url, OTHER) : concretePath(route.url, HOME);
        const response = await call(route.method, named, { cookie: session.agent, siteHeader: OTHER });
        expect({ route: `${route.method} ${route.url}`, status: response.statusCode, code: response.json().error }).toEqual({
          route: `${route.method} ${route.url}`,
          status: 403,
          code: 'SITE_MISMATCH',
        });
      }
      const actFor = await call('POST', '/api/user-mgmt/user/concierge/act-for', { cookie: session.agent, json: { email: OTHER_HOLDER.email } });
      expect(actFor.statusCode).toBe(404);
      expect(actFor.json().error).toBe('USER_NOT_FOUND');
      const acting = await gateway.test.db.query('select 1 from sessions where acting_for_user_id = $1', [otherHolderId]);
      expect(acting.rows).toEqual([]);
      expect(await otherSiteRows()).toEqual(before);
    });

    it('on its own site every guarded route lets the right session through (no 401/403 from the access hook)', async () => {
      // A holder of its own: this walk really calls remove-account and the like.
      await insertUser(gateway.test.db, { email: 'walker@example.com', password: 'Walker#2026x', siteId: HOME });
      let walker = await signIn('walker@example.com', HOME);
      // remove-account really closes the walker's account: it goes last.
      const closesAccount = (route: WalkedRoute) => Number(route.url.endsWith('/remove-account'));
      for (const route of guarded().sort((a, b) => closesAccount(a) - closesAccount(b))) {
        const response = await call(route.method, concretePath(route.url, HOME), {
          cookie: route.access === 'agent' ? session.agent : walker,
          siteHeader: HOME,
        });
        expect(
          ['UNAUTHENTICATED', 'SITE_MISMATCH', 'NOT_CONCIERGE', 'CONCIERGE_NOT_ALLOWED', 'SITE_NOT_GRANTED'].includes(response.json().error),
          `${route.method} ${route.url}: ${response.statusCode} ${response.body}`,
        ).toBe(false);
        // `auth/refresh-token` replaces the session, as the app's browser would follow.
        const renewed = [response.headers['set-cookie'] ?? []]
          .flat()
          .map((line) => line.split(';')[0])
          .find((pair) => pair?.startsWith('SESSION=') && pair !== 'SESSION=');
        if (renewed !== undefined && route.access !== 'agent') walker = renewed;
      }
    });

    it('an agent whose grant of the site is withdrawn is refused at the next call (403 SITE_NOT_GRANTED)', async () => {
      const agent = await signIn(AGENT.email, HOME);
      expect((await call('GET', '/api/user-mgmt/user/concierge/act-for', { cookie: agent })).statusCode).toBe(200);
      await gateway.test.db.query(`delete from agent_site_grants where site_id = $1 and user_id = (select id from users where email = $2)`, [
        HOME,
        AGENT.email,
      ]);
      const refused = await call('GET', '/api/user-mgmt/user/concierge/act-for', { cookie: agent });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe('SITE_NOT_GRANTED');
      await gateway.test.db.query(`insert into agent_site_grants (user_id, site_id) select id, $1 from users where email = $2`, [HOME, AGENT.email]);
    });
  });
});
