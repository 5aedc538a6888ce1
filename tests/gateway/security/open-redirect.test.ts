import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileRedirects } from '../../security/hostile-redirects';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { describeEachDatabase } from '../support/database-legs';

/**
 * The security suite's open-redirect tests (README "Set-up"), SPEC §2 (SSO parameters), ADR 0015: the
 * gateway's only redirects are the SSO start (to the site's issuer), the test provider's authorize (to the
 * identity picker beside a registered redirect URI) and `/` (to the default site). None of them
 * may be steered off the portal by `redirect_uri` or `last_visited_path`: a hostile value is a
 * JSON 400 naming the parameter, never a 3xx. `returnurl` never reaches a gateway redirect: the
 * app page answers 200 whatever it holds (the browser side is tests/e2e/open-redirect.test.ts).
 */
const SITE = 'unionbank';
const CLIENT_ID = 'unionbank-rewards-portal';
const REGISTERED_REDIRECT_URI = '/unionbank/en_us/account/redirect-sso';
const ORIGIN = 'http://127.0.0.1:8080';
const HOSTILE = hostileRedirects(ORIGIN);

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let app: FastifyInstance;
  let caller = 0;
  beforeAll(async () => {
    gateway = await openSignInGateway(leg);
    app = gateway.app;
  });
  afterAll(() => gateway?.dispose());

  /** Each start from its own address: ADR 0008's per-IP limit of login calls is not what is under test. */
  const get = (url: string): Promise<LightMyRequestResponse> => app.inject({ method: 'GET', url, remoteAddress: `198.51.100.${(caller++ % 250) + 1}` });
  const startSso = (params: Record<string, string>) =>
    get(
      `/api/user-auth/oidc/authorize?${new URLSearchParams({ siteId: SITE, client_id: CLIENT_ID, response_type: 'code', scope: 'openid email profile', redirect_uri: REGISTERED_REDIRECT_URI, ...params }).toString()}`,
    );

  function expectRefusedNaming(response: LightMyRequestResponse, field: string, codes: string[]): void {
    expect(response.statusCode, response.body).toBe(400);
    expect(response.headers.location).toBeUndefined();
    const body = response.json<{ error: string; fields?: Record<string, string> }>();
    expect(codes).toContain(body.error);
    expect(Object.keys(body.fields ?? {})).toContain(field);
  }

  describe('redirect_uri: GET user-auth/oidc/authorize', () => {
    it.each(HOSTILE)('refuses $name with a 400 naming redirect_uri, never a redirect', async ({ value }) => {
      expectRefusedNaming(await startSso({ redirect_uri: value }), 'redirect_uri', ['REDIRECT_URI_NOT_REGISTERED', 'VALIDATION_FAILED']);
    });

    it.each(HOSTILE)("the test provider's authorize refuses $name too, never a redirect", async ({ value }) => {
      const started = await startSso({});
      const providerUrl = new URL(String(started.headers.location), ORIGIN);
      providerUrl.searchParams.set('redirect_uri', value);
      const response = await get(`${providerUrl.pathname}${providerUrl.search}`);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.headers.location).toBeUndefined();
    });

    it.each([REGISTERED_REDIRECT_URI, `${ORIGIN}${REGISTERED_REDIRECT_URI}`])(
      'a registered redirect_uri (%s) starts the flow: 302 to the provider on this origin, then to the picker beside it',
      async (redirectUri) => {
        const started = await startSso({ redirect_uri: redirectUri });
        expect(started.statusCode, started.body).toBe(302);
        const providerUrl = new URL(String(started.headers.location), ORIGIN);
        expect(providerUrl.origin).toBe(ORIGIN);
        expect(providerUrl.pathname).toBe('/test-idp/authorize');
        expect(providerUrl.searchParams.get('redirect_uri')).toBe(redirectUri);
        const picker = await get(`${providerUrl.pathname}${providerUrl.search}`);
        expect(picker.statusCode, picker.body).toBe(302);
        const pickerUrl = new URL(String(picker.headers.location), ORIGIN);
        expect(pickerUrl.origin).toBe(ORIGIN);
        expect(pickerUrl.pathname).toBe('/unionbank/en_us/account/sso-simulator');
      },
    );
  });

  describe('last_visited_path: GET user-auth/oidc/authorize', () => {
    it.each(HOSTILE)('refuses $name with a 400 naming last_visited_path, never a redirect', async ({ value }) => {
      expectRefusedNaming(await startSso({ last_visited_path: value }), 'last_visited_path', ['LAST_VISITED_PATH_OFF_SITE', 'VALIDATION_FAILED']);
      // Nothing was kept for a later landing.
      const kept = await gateway.test.db.query<{ last_visited_path: string | null }>(
        'select last_visited_path from sso_login_requests where last_visited_path is not null',
      );
      expect(kept.rows.map((row) => row.last_visited_path)).not.toContain(value);
    });

    it('a same-site account path with its locale segment is kept for the landing', async () => {
      const started = await startSso({ last_visited_path: '/unionbank/en_us/account/site-settings' });
      expect(started.statusCode, started.body).toBe(302);
      const kept = await gateway.test.db.query<{ last_visited_path: string }>(
        'select last_visited_path from sso_login_requests where last_visited_path is not null',
      );
      expect(kept.rows.map((row) => row.last_visited_path)).toContain('/unionbank/en_us/account/site-settings');
    });
  });

  describe('returnurl: the app page', () => {
    it.each(HOSTILE.filter(({ value }) => !/[\t\n]/.test(value)))('serves the sign-in page for $name with no redirect of its own', async ({ value }) => {
      const response = await get(`/eurobank/en_us/account/login-form?${new URLSearchParams({ returnurl: value }).toString()}`);
      // This gateway has no build: the page route answers 503 APP_NOT_BUILT (200 with one), and never a 3xx.
      expect([200, 503]).toContain(response.statusCode);
      expect(response.headers.location).toBeUndefined();
    });
  });
});
