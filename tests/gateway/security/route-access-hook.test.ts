import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_ACCESS_KINDS } from '../../../schemas/api/contract';
import { declareAccessOfEveryRoute, enforceDeclaredAccess, registerPluginWithAccess, UndeclaredAccessError } from '../../../gateway/http/route-access';
import { AdjustableClock } from '../../../gateway/time/clock';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser } from '../support/test-browser';
import { realFixtures, stubDatabase, TEST_XSRF_TOKEN } from '../support/test-gateway';

/**
 * docs/decisions/0017-threat-model.md "Declared access": the one hook's answers, each as the caller reads it (status,
 * code, message, fields), for the cases the walk over every route (route-access.test.ts) does not meet: a session
 * that ended, a breached password to replace, fresh proof (ADR 0025), the operators' token, `public-site-bound`
 * routes, malformed site ids and bodies, and the declarations themselves.
 */

const MESSAGES = {
  signIn: 'Sign in to continue.',
  passwordChanged: 'Your password was changed, so this session ended. Sign in with the new password.',
  conciergeNotAllowed: 'A support agent cannot change passwords, MFA, cards or the account; the card holder does that.',
  notConcierge: 'Only a support agent may use the concierge calls.',
  siteNotGranted: 'This site is not granted to this support agent.',
  passwordChangeRequired: 'Your password appeared in a data breach; choose a new one before going on.',
  siteMismatch: 'This session belongs to another site; sign in on this site.',
  operators: 'This is for operators: send the metrics token as a bearer token.',
  badSite: (field: string) => `Invalid request: ${field} must be a site id (letters, digits, _ and -).`,
};

describe('declarations (ADR 0017)', () => {
  /** A bare Fastify app as the gateway sets it up: every route declared, one scope enforcing. */
  // No plugin timeout: on a loaded machine loading the fixtures may take longer than Fastify's 10 s.
  const bareApp = () => {
    const app = Fastify({ pluginTimeout: 0 });
    declareAccessOfEveryRoute(app);
    return app;
  };

  it('a route without a declaration names itself and the six kinds to choose from', () => {
    const app = bareApp();
    let thrown: unknown;
    try {
      app.get('/api/forgotten', async () => ({}));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UndeclaredAccessError);
    expect((thrown as Error).name).toBe('UndeclaredAccessError');
    expect((thrown as Error).message).toBe(
      `GET /api/forgotten declares no access: take it from its contract entry (fromContract; one of ${ROUTE_ACCESS_KINDS.join(', ')})`,
    );
    expect(ROUTE_ACCESS_KINDS.join(', ')).toBe('public, public-site-bound, signed-in, cardholder, agent, operator');
  });

  it('registerPluginWithAccess gives its routes the access, and only while it runs (also when the plugin fails)', async () => {
    const app = bareApp();
    await registerPluginWithAccess(app, 'public', async () => {
      app.get('/from-plugin', async () => ({ served: true }));
    });
    expect(() => app.get('/after', async () => ({}))).toThrow(UndeclaredAccessError);
    await expect(
      registerPluginWithAccess(app, 'public', async () => {
        throw new Error('the plugin failed');
      }),
    ).rejects.toThrow('the plugin failed');
    expect(() => app.get('/after-failure', async () => ({}))).toThrow(UndeclaredAccessError);
    // A declared route keeps its own access inside the plugin's run.
    await registerPluginWithAccess(app, 'public', async () => {
      expect(() => app.get('/declared', { config: { access: 'signed-in' } }, async () => ({}))).toThrow(/registered outside the scope that enforces access/);
    });
    expect((await app.inject({ method: 'GET', url: '/from-plugin' })).json()).toEqual({ served: true });
    await app.close();
  });

  it('a public route may sit outside the enforcing scope; a non-public one only inside it or a child of it', async () => {
    const app = bareApp();
    expect(() => app.get('/open', { config: { access: 'public' } }, async () => ({}))).not.toThrow();
    const fixtures = await realFixtures();
    await app.register(async (scope) => {
      enforceDeclaredAccess(scope, { db: stubDatabase, fixtures, clock: new AdjustableClock() });
      await scope.register(async (child) => {
        child.get('/inside', { config: { access: 'signed-in' } }, async () => ({}));
      });
    });
    await app.ready();
    expect((await app.inject({ method: 'GET', url: '/inside' })).statusCode).toBe(401);
    await app.close();
  });

  it('README "Metrics": an operators\' scope given no token refuses every caller, bearer or not', async () => {
    const app = bareApp();
    const fixtures = await realFixtures();
    await app.register(async (scope) => {
      enforceDeclaredAccess(scope, { db: stubDatabase, fixtures, clock: new AdjustableClock() });
      scope.get('/metrics', { config: { access: 'operator' } }, async () => 'metrics');
    });
    for (const authorization of [undefined, 'Bearer undefined', 'Bearer ']) {
      const response = await app.inject({ method: 'GET', url: '/metrics', headers: authorization === undefined ? {} : { authorization } });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expect(response.json()).toMatchObject({ message: MESSAGES.operators });
    }
    await app.close();
  });
});

describeEachDatabase((leg) => {
  describe('the access hook on the gateway (ADR 0017)', () => {
    const METRICS_TOKEN = 'metrics-token-0123456789abcdef0123456789';
    let gateway: SignInGateway;
    let app: FastifyInstance;
    let users = 0;

    /** A fresh card holder (or agent) of `siteId`, signed in: the SESSION pair for the cookie header. */
    const signedIn = async (siteId = 'firstbank', roles?: string[]) => {
      users += 1;
      const email = `access${users}@example.com`;
      await insertUser(gateway.test.db, { email, password: 'Access#Holder2026', siteId, ...(roles ? { roles } : {}) });
      const response = await app.inject({ method: 'POST', url: '/api/test-support/session', payload: { email, siteId } });
      expect(response.statusCode, response.body).toBe(200);
      const cookie = setCookies(response)
        .find((line) => line.startsWith('SESSION='))!
        .split(';')[0]!;
      return { email, cookie };
    };
    const setCookies = (response: LightMyRequestResponse) => [response.headers['set-cookie'] ?? []].flat();

    const call = (
      method: 'GET' | 'POST',
      url: string,
      options: { cookie?: string; siteHeader?: string; payload?: string; authorization?: string } = {},
    ): Promise<LightMyRequestResponse> => {
      const headers: Record<string, string> = {
        cookie: [options.cookie, `XSRF-TOKEN=${TEST_XSRF_TOKEN}`].filter(Boolean).join('; '),
        'x-xsrf-token': TEST_XSRF_TOKEN,
      };
      if (options.siteHeader !== undefined) headers['x-site-id'] = options.siteHeader;
      if (options.authorization !== undefined) headers.authorization = options.authorization;
      if (options.payload !== undefined) headers['content-type'] = 'application/json';
      return app.inject({ method, url, headers, ...(options.payload === undefined ? {} : { payload: options.payload }) });
    };
    const answer = (response: LightMyRequestResponse) => ({ status: response.statusCode, ...response.json<Record<string, unknown>>() });
    /** A card number's validation, open to anyone, held to the session's site for a caller signed in. */
    const validate = (query: string, options: { cookie?: string; siteHeader?: string } = {}) =>
      call('POST', `/api/assets/validation${query}`, { ...options, payload: JSON.stringify({ assetType: 'PAN', value: '4111111111111111' }) });

    beforeAll(async () => {
      gateway = await openSignInGateway(leg, { metricsToken: METRICS_TOKEN });
      app = gateway.app;
      await app.ready();
    }, 60_000);
    afterAll(() => gateway?.dispose());

    it('anonymous: 401 "Sign in to continue.", and no cookie is cleared that was never set', async () => {
      const response = await call('GET', '/api/user-mgmt/user/find');
      expect(answer(response)).toEqual({ status: 401, error: 'UNAUTHENTICATED', message: MESSAGES.signIn });
      expect(setCookies(response).filter((line) => line.startsWith('SESSION='))).toEqual([]);
    });

    it('a path no route serves is 404 for anyone, not a sign-in prompt', async () => {
      const response = await call('GET', '/api/no-such-route');
      expect({ status: response.statusCode, error: response.json().error }).toEqual({ status: 404, error: 'NOT_FOUND' });
    });

    it('an unknown or expired SESSION: 401 "Sign in to continue." and the session cookies are cleared', async () => {
      const response = await call('GET', '/api/user-mgmt/user/find', { cookie: 'SESSION=no-such-session' });
      expect(answer(response)).toEqual({ status: 401, error: 'UNAUTHENTICATED', message: MESSAGES.signIn });
      expect(setCookies(response).find((line) => line.startsWith('SESSION='))).toMatch(/^SESSION=;/);
    });

    it('a session a new password ended elsewhere says so (sessionEnded), and is cleared', async () => {
      const holder = await signedIn();
      await gateway.test.db.query(
        `update sessions set revoked_at = $2, revoked_reason = 'password_changed' where user_id = (select id from users where email = $1)`,
        [holder.email, gateway.clock.now()],
      );
      const response = await call('GET', '/api/user-mgmt/user/find', { cookie: holder.cookie });
      expect(answer(response)).toEqual({ status: 401, error: 'UNAUTHENTICATED', message: MESSAGES.passwordChanged, sessionEnded: 'password_changed' });
      expect(setCookies(response).find((line) => line.startsWith('SESSION='))).toMatch(/^SESSION=;/);
    });

    it('the wrong kind of session, and an agent without the grant, are told why', async () => {
      const holder = await signedIn();
      const agent = await signedIn('firstbank', ['ROLE_CONCIERGE']);
      expect(answer(await call('POST', '/api/user-mgmt/user/change-password', { cookie: agent.cookie, payload: '{}' }))).toEqual({
        status: 403,
        error: 'CONCIERGE_NOT_ALLOWED',
        message: MESSAGES.conciergeNotAllowed,
      });
      expect(answer(await call('GET', '/api/user-mgmt/user/concierge/act-for', { cookie: holder.cookie }))).toEqual({
        status: 403,
        error: 'NOT_CONCIERGE',
        message: MESSAGES.notConcierge,
      });
      // A card holder's session is never "not granted"; an agent's is once the grant is gone, on any route.
      expect((await call('GET', '/api/user-mgmt/user/find', { cookie: holder.cookie })).statusCode).toBe(200);
      await gateway.test.db.query('delete from agent_site_grants where user_id = (select id from users where email = $1)', [agent.email]);
      expect(answer(await call('GET', '/api/user-mgmt/user/find', { cookie: agent.cookie }))).toEqual({
        status: 403,
        error: 'SITE_NOT_GRANTED',
        message: MESSAGES.siteNotGranted,
      });
    });

    it('ADR 0009: an account that must replace a breached password reaches only the routes open to it', async () => {
      const holder = await signedIn();
      await gateway.test.db.query('update users set password_change_required = true where email = $1', [holder.email]);
      expect(answer(await call('GET', '/api/user-mgmt/user/find', { cookie: holder.cookie }))).toEqual({
        status: 403,
        error: 'PASSWORD_CHANGE_REQUIRED',
        message: MESSAGES.passwordChangeRequired,
      });
      expect((await call('GET', '/api/user-auth/auth/user-token', { cookie: holder.cookie })).statusCode).toBe(200);
      expect((await call('GET', '/api/user-attribute/user/background/firstbank', { cookie: holder.cookie })).statusCode).toBe(200);
    });

    it("every site the request names must be the session's: path, each query siteId, X-SITE-ID, a body's siteId", async () => {
      const holder = await signedIn();
      const mismatch = { status: 403, error: 'SITE_MISMATCH', message: MESSAGES.siteMismatch };
      expect(answer(await call('GET', '/api/user-attribute/user/background/eurobank', { cookie: holder.cookie }))).toEqual(mismatch);
      expect(answer(await call('GET', '/api/user-mgmt/user/find?siteId=firstbank&siteId=eurobank', { cookie: holder.cookie }))).toEqual(mismatch);
      expect(answer(await call('GET', '/api/user-mgmt/user/find', { cookie: holder.cookie, siteHeader: 'eurobank' }))).toEqual(mismatch);
      const save = (payload: string) => call('POST', '/api/user-attribute/user/attribute/firstbank', { cookie: holder.cookie, payload });
      expect(answer(await save(JSON.stringify({ siteId: 'eurobank', attributes: {}, version: 0 })))).toEqual(mismatch);
      // Its own site everywhere passes.
      expect((await call('GET', '/api/user-mgmt/user/find?siteId=firstbank', { cookie: holder.cookie, siteHeader: 'firstbank' })).statusCode).toBe(200);
      expect((await call('GET', '/api/user-attribute/user/background/firstbank', { cookie: holder.cookie })).statusCode).toBe(200);
    });

    it('a malformed site id is a 400 naming its field (invalidCharacter for a control character), never a mismatch', async () => {
      const holder = await signedIn();
      const bad = (field: string, key = 'invalid') => ({
        status: 400,
        error: 'VALIDATION_FAILED',
        message: MESSAGES.badSite(field),
        fields: { [field]: key },
      });
      expect(answer(await call('GET', '/api/user-mgmt/user/find', { cookie: holder.cookie, siteHeader: '../etc' }))).toEqual(bad('x-site-id'));
      expect(answer(await call('GET', '/api/user-attribute/user/background/..%2Fetc', { cookie: holder.cookie }))).toEqual(bad('siteId'));
      expect(answer(await call('GET', '/api/user-mgmt/user/find?siteId=..%2Fetc', { cookie: holder.cookie }))).toEqual(bad('siteId'));
      expect(answer(await call('GET', '/api/user-mgmt/user/find?siteId=first%01bank', { cookie: holder.cookie }))).toEqual(bad('siteId', 'invalidCharacter'));
      const save = (payload: string) => call('POST', '/api/user-attribute/user/attribute/firstbank', { cookie: holder.cookie, payload });
      expect(answer(await save(JSON.stringify({ siteId: 42, attributes: {}, version: 0 })))).toEqual(bad('siteId'));
      // Not a text, even one holding the session's own site.
      expect(answer(await save(JSON.stringify({ siteId: ['firstbank'], attributes: {}, version: 0 })))).toEqual(bad('siteId'));
      expect(answer(await save(JSON.stringify({ siteId: '', attributes: {}, version: 0 })))).toEqual(bad('siteId'));
    });

    it("a body that is not an object (null, a string, an array) is the schema's 400, never a server error", async () => {
      const holder = await signedIn();
      for (const payload of ['null', '"eurobank"', '["eurobank"]', '42']) {
        const response = await call('POST', '/api/user-attribute/user/attribute/firstbank', { cookie: holder.cookie, payload });
        expect({ payload, status: response.statusCode, error: response.json().error }).toEqual({ payload, status: 400, error: 'VALIDATION_FAILED' });
      }
    });

    it("public-site-bound: anyone may call it naming any site; a signed-in caller is held to the session's site", async () => {
      expect((await validate('?siteId=eurobank')).statusCode).toBe(200);
      expect((await validate('?siteId=eurobank', { siteHeader: 'eurobank' })).statusCode).toBe(200);
      // A session that is no more is a caller without one.
      expect((await validate('?siteId=eurobank', { cookie: 'SESSION=no-such-session' })).statusCode).toBe(200);
      const holder = await signedIn();
      expect((await validate('?siteId=firstbank', { cookie: holder.cookie })).statusCode).toBe(200);
      expect(answer(await validate('?siteId=eurobank', { cookie: holder.cookie }))).toEqual({
        status: 403,
        error: 'SITE_MISMATCH',
        message: MESSAGES.siteMismatch,
      });
      expect(answer(await validate('?siteId=firstbank', { cookie: holder.cookie, siteHeader: 'eurobank' }))).toMatchObject({
        status: 403,
        error: 'SITE_MISMATCH',
      });
    });

    it('README "Metrics": /metrics needs the operators\' bearer token, never a session', async () => {
      const holder = await signedIn();
      for (const options of [{}, { cookie: holder.cookie }, { authorization: 'Bearer wrong-token' }, { authorization: METRICS_TOKEN }]) {
        const refused = await call('GET', '/metrics', options);
        expect(refused.statusCode).toBe(401);
        expect(refused.headers['www-authenticate']).toBe('Bearer');
        expect(refused.json()).toEqual({ error: 'UNAUTHENTICATED', message: MESSAGES.operators });
      }
      const metrics = await call('GET', '/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
      expect(metrics.statusCode).toBe(200);
      expect(metrics.headers['www-authenticate']).toBeUndefined();
    });

    it('ADR 0025: a route that owns the account asks for fresh proof (403 FRESH_PROOF_REQUIRED); the others do not', async () => {
      const holder = await signedIn();
      gateway.clock.advance(11 * 60);
      expect((await call('GET', '/api/user-mgmt/user/find', { cookie: holder.cookie })).statusCode).toBe(200);
      const change = await call('POST', '/api/user-mgmt/user/change-password', {
        cookie: holder.cookie,
        payload: JSON.stringify({ currentPassword: 'Access#Holder2026', password: 'Fresh#Password2027', confirm_password: 'Fresh#Password2027' }),
      });
      expect({ status: change.statusCode, error: change.json().error }).toEqual({ status: 403, error: 'FRESH_PROOF_REQUIRED' });
      // Anonymous, the same route is the session check's 401, not fresh proof's.
      expect(answer(await call('POST', '/api/user-mgmt/user/change-password', { payload: '{}' }))).toMatchObject({ status: 401, error: 'UNAUTHENTICATED' });
    });
  });
});
