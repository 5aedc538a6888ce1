// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import unionbank from '../../../fixtures/sites/unionbank.json';
import type { SiteConfig } from '../../../schemas/site-config/types';
import { FEATURE_FLAGS } from '../../../src/app/feature-flags';
import { decideRoute } from '../../../src/routes/route-guards';
import { collectSsoParameters, ssoStartPath, ssoStartFields } from '../../../src/screens/sso/sso-parameters';
import { answerWith, callsTo, renderPortal, resetFakePortal, signedInAnswers, type Answer, type SentCall } from './support/fake-portal';

/**
 * SSO (docs/decisions/0015-sso-oidc.md) over the fake gateway: redirect-sso checks the
 * SPEC §2 SSO parameters before anything leaves the page, finishes a sign-in with code and state and
 * explains a refusal; the sso-simulator picker asks for a choice and sends it; the simulator guard.
 */
const BASE = '/unionbank/en_us/account/';
const SITE = unionbank as unknown as SiteConfig;
const PAGE = { origin: 'http://localhost', path: `${BASE}redirect-sso` };
const CODE = 'c'.repeat(43);
const STATE = 's'.repeat(43);

function ssoGateway(answers: (call: SentCall) => Answer | undefined = () => undefined) {
  answerWith((call) => {
    if (call.url === 'site-config-service/config/site/unionbank') return { status: 200, data: unionbank };
    return answers(call) ?? (document.cookie.includes('gmap_authenticated=true') ? signedInAnswers(call) : undefined);
  });
}

beforeEach(() => {
  resetFakePortal();
  // jsdom cannot leave the page; the flow's own navigations are asserted through the calls they follow.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('SPEC §2 SSO parameters (collectSsoParameters)', () => {
  it("fills what the query leaves out from the site: its client, this page's registered redirect URI, code, openid", () => {
    expect(collectSsoParameters(SITE, new URLSearchParams(), PAGE)).toEqual({
      kind: 'ready',
      protocol: 'oidc',
      params: {
        client_id: 'unionbank-rewards-portal',
        response_type: 'code',
        scope: 'openid email profile',
        redirect_uri: `${BASE}redirect-sso`,
        state: undefined,
        nonce: undefined,
        last_visited_path: undefined,
      },
    });
  });

  it('on a SAML site (ADR 0028) takes only the page to come back to, and starts at the SAML call', () => {
    const saml = structuredClone(SITE);
    const profile = saml.siteFeatureConfigurations.find(({ name }) => name === 'site_auth_profile')!;
    profile.featureConfig = { auth_mechanism: 'SSO', protocol: 'saml', saml_sp_entity_id: 'urn:example:sp', saml_acs_url: 'https://portal.example/acs' };
    expect(collectSsoParameters(saml, new URLSearchParams({ last_visited_path: `${BASE}profile` }), PAGE)).toEqual({
      kind: 'ready',
      protocol: 'saml',
      params: { last_visited_path: `${BASE}profile` },
    });
    expect(collectSsoParameters(saml, new URLSearchParams({ last_visited_path: 'https://elsewhere.example/' }), PAGE)).toEqual({
      kind: 'invalid',
      names: ['last_visited_path'],
    });
    expect(ssoStartPath('saml')).toBe('/user-auth/saml/authorize');
  });

  it('names every parameter that is wrong', () => {
    const query = new URLSearchParams({
      client_id: 'other',
      response_type: 'token',
      scope: 'email',
      state: 'x',
      nonce: '<b>',
      redirect_uri: 'https://evil.example/cb',
      last_visited_path: '//evil.example/en_us/',
    });
    expect(collectSsoParameters(SITE, query, PAGE)).toEqual({
      kind: 'invalid',
      names: ['client_id', 'response_type', 'scope', 'state', 'nonce', 'redirect_uri', 'last_visited_path'],
    });
  });

  it('a site without SSO has none, and the start form carries the site and every parameter given', () => {
    const firstbank = { ...SITE, siteFeatureConfigurations: SITE.siteFeatureConfigurations.filter((feature) => feature.name !== 'site_auth_profile') };
    expect(collectSsoParameters(firstbank, new URLSearchParams(), PAGE)).toEqual({ kind: 'not-sso' });
    expect(ssoStartFields('unionbank', { client_id: 'unionbank-rewards-portal', state: undefined, nonce: 'n'.repeat(16) })).toEqual([
      ['siteId', 'unionbank'],
      ['client_id', 'unionbank-rewards-portal'],
      ['nonce', 'n'.repeat(16)],
    ]);
  });
});

describe('redirect-sso', () => {
  it("a guest gets a form to the gateway's authorize start, with the collected parameters", async () => {
    ssoGateway();
    renderPortal(`${BASE}redirect-sso?last_visited_path=${encodeURIComponent(`${BASE}site-settings`)}`);
    const button = await screen.findByRole('button', { name: 'Continue to Smile' });
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    const form = button.closest('form')!;
    expect(form.getAttribute('method')).toBe('get');
    expect(form.getAttribute('action')).toBe('/api/user-auth/oidc/authorize');
    expect(Object.fromEntries(new FormData(form))).toEqual({
      siteId: 'unionbank',
      client_id: 'unionbank-rewards-portal',
      response_type: 'code',
      scope: 'openid email profile',
      redirect_uri: `${BASE}redirect-sso`,
      last_visited_path: `${BASE}site-settings`,
    });
  });

  it("ADR 0001 connected_app: the page and its button name the bank's sign-in app; a site that names none gets the general words", async () => {
    ssoGateway();
    renderPortal(`${BASE}redirect-sso`);
    await screen.findByRole('button', { name: 'Continue to Smile' });
    expect(screen.getByText("This site signs you in through Smile, your bank's own sign-in.")).toBeTruthy();
    cleanup();

    const unnamed = {
      ...unionbank,
      siteFeatureConfigurations: unionbank.siteFeatureConfigurations.map((feature) =>
        feature.name === 'site_auth_profile' ? { ...feature, featureConfig: { ...feature.featureConfig, connected_app: undefined } } : feature,
      ),
    };
    resetFakePortal();
    answerWith((call) => (call.url === 'site-config-service/config/site/unionbank' ? { status: 200, data: unnamed } : undefined));
    renderPortal(`${BASE}redirect-sso`);
    await screen.findByRole('button', { name: "Continue to your bank's sign-in" });
    expect(screen.getByText("This site signs you in through your bank's own sign-in page.")).toBeTruthy();
  });

  it('a malformed nonce is explained on the page and no call starts the flow', async () => {
    ssoGateway();
    renderPortal(`${BASE}redirect-sso?nonce=${encodeURIComponent('<script>')}`);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('⚠This sign-in link cannot be used: nonce must be 16 to 128 letters, digits or the signs - . _ ~.');
    expect(callsTo('user-auth/oidc/authorize')).toEqual([]);
  });

  it('back with code and state: posts them once; a refused state says so and offers a fresh start', async () => {
    ssoGateway((call) =>
      call.url === 'user-auth/oidc/authorize'
        ? { status: 400, data: { error: 'SSO_STATE_INVALID', message: 'The state is unknown.', fields: { state: 'invalid' } } }
        : undefined,
    );
    renderPortal(`${BASE}redirect-sso?code=${CODE}&state=${STATE}`);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('⚠This sign-in could not be verified: its state is unknown, changed or already used. Please start again.');
    expect(callsTo('user-auth/oidc/authorize')).toEqual([expect.objectContaining({ method: 'POST', body: { siteId: 'unionbank', code: CODE, state: STATE } })]);
    expect(screen.getByRole('link', { name: 'Start the sign-in again' }).getAttribute('href')).toBe(`${BASE}redirect-sso`);
  });

  it.each([
    ['SSO_CODE_REJECTED', 'Your bank did not accept this sign-in: the code was already used or has expired. Please start again.'],
    ['SSO_NONCE_MISMATCH', "Your bank's answer could not be verified. Please start again."],
  ])('%s is explained', async (code, message) => {
    ssoGateway((call) => (call.url === 'user-auth/oidc/authorize' ? { status: 401, data: { error: code, message: 'refused' } } : undefined));
    renderPortal(`${BASE}redirect-sso?code=${CODE}&state=${STATE}`);
    expect((await screen.findByRole('alert')).textContent).toBe(`⚠${message}`);
  });

  // ADR 0015 (lead decision): the §2 SSO rule spares a signed-in card holder, so the landing shows the page.
  it.each([
    [null, `${BASE}profile`],
    [`${BASE}cashback-statement`, `${BASE}cashback-statement`],
    ['https://evil.example/en_us/account/profile', `${BASE}profile`],
  ])('signed in with last_visited_path %s: the code leaves the URL and the visitor lands on %s', async (lastVisitedPath, landing) => {
    ssoGateway((call) =>
      call.url === 'user-auth/oidc/authorize'
        ? {
            status: 200,
            data: { status: 'SIGNED_IN', expires_in: 1800, user_type: 'CARDHOLDER', mfaEnrollmentStatus: 'NOT_ENROLLED', lastVisitedPath },
            setCookie: 'gmap_authenticated=true; Path=/',
          }
        : undefined,
    );
    const { router } = renderPortal(`${BASE}redirect-sso?code=${CODE}&state=${STATE}`);
    await waitFor(() => expect(router.state.location.pathname).toBe(landing));
    expect(router.state.location.search).toBe('');
    expect(callsTo('user-auth/oidc/authorize')).toHaveLength(1);
  });

  it('a signed-in visitor who opens redirect-sso is told so, with a way to sign out, never sent round again', async () => {
    document.cookie = 'gmap_authenticated=true; Path=/';
    ssoGateway();
    const { router } = renderPortal(`${BASE}redirect-sso`);
    expect((await screen.findByText('You are signed in.')).closest('[role="status"]')).not.toBeNull();
    expect(router.state.location.pathname).toBe(`${BASE}redirect-sso`);
    expect(screen.getByRole('link', { name: 'Sign out' }).getAttribute('href')).toBe(`${BASE}logout`);
    expect(callsTo('user-auth/oidc/authorize')).toHaveLength(0);
  });
});

describe('after an SSO sign-out (auth/signed-out-mark.ts)', () => {
  it.each([
    ['a local sign-out (no end-session URL)', null],
    ["the provider's end-session round trip", 'http://127.0.0.1/test-idp/logout?client_id=unionbank-rewards-portal'],
  ])('%s: redirect-sso says the holder is signed out and offers to sign in again', async (_way, endSessionUrl) => {
    document.cookie = 'gmap_authenticated=true; Path=/';
    ssoGateway((call) =>
      call.url === 'logout' ? { status: 200, data: { revoked: true, endSessionUrl }, setCookie: 'gmap_authenticated=; Max-Age=0; Path=/' } : undefined,
    );
    const first = renderPortal(`${BASE}logout`);
    await waitFor(() => expect(callsTo('logout')).toHaveLength(1));
    if (endSessionUrl !== null) {
      // jsdom cannot leave for the provider, which sends the browser back to the registered redirect URI: a fresh
      // document in the same tab.
      expect(first.router.state.location.pathname).toBe(`${BASE}logout`);
      cleanup();
      renderPortal(`${BASE}redirect-sso`);
    } else {
      await waitFor(() => expect(first.router.state.location.pathname).toBe(`${BASE}redirect-sso`));
    }
    // The sign-out screen's own heading may still show while redirect-sso loads: wait for this screen's.
    expect((await screen.findByRole('heading', { level: 1, name: 'You are signed out.' })).textContent).toBe('You are signed out.');
    // The tab says it too (SPEC §2 page title follows the screen shown); it read "Signing you in".
    await waitFor(() => expect(document.title).toContain('You are signed out.'));
    const button = await screen.findByRole('button', { name: 'Sign in again' });
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    expect(button.closest('form')!.getAttribute('action')).toBe('/api/user-auth/oidc/authorize');
  });

  it('without a sign-out behind it, redirect-sso is the plain sign-in start', async () => {
    ssoGateway();
    renderPortal(`${BASE}redirect-sso`);
    await screen.findByRole('button', { name: 'Continue to Smile' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Signing you in');
  });
});

describe('sso-simulator', () => {
  const INTERACTION = 'i'.repeat(43);
  const identities = [
    { subject: 'ub-000417', email: 'grace.villanueva@example.com', givenName: 'Grace', familyName: 'Villanueva' },
    { subject: 'ub-000982', email: 'marco.reyes@example.com', givenName: 'Marco', familyName: 'Reyes' },
  ];

  it('lists the identities, asks for a choice next to them, and sends the chosen one to the provider', async () => {
    ssoGateway((call) => {
      if (call.url === `/test-idp/interactions/${INTERACTION}` && call.method === 'GET')
        return { status: 200, data: { clientId: 'unionbank-rewards-portal', identities } };
      if (call.url === `/test-idp/interactions/${INTERACTION}`) return { status: 200, data: { redirectTo: `${BASE}redirect-sso?code=${CODE}&state=${STATE}` } };
      return undefined;
    });
    renderPortal(`${BASE}sso-simulator?interaction=${INTERACTION}`);
    expect(await screen.findByRole('radio', { name: 'Marco Reyes (marco.reyes@example.com)' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in as this person' }));
    const required = await screen.findByRole('alert');
    expect(required.textContent).toBe('Choose an identity to sign in as.');
    expect(screen.getByRole('group', { name: 'Simulated identity' }).getAttribute('aria-describedby')).toBe(required.id);
    expect(callsTo(`/test-idp/interactions/${INTERACTION}`).filter((call) => call.method === 'POST')).toEqual([]);

    fireEvent.click(screen.getByRole('radio', { name: 'Grace Villanueva (grace.villanueva@example.com)' }));
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in as this person' }));
    await waitFor(() =>
      expect(callsTo(`/test-idp/interactions/${INTERACTION}`).filter((call) => call.method === 'POST')).toEqual([
        expect.objectContaining({ body: { subject: 'ub-000417' } }),
      ]),
    );
  });

  it('an expired or answered request says so, with a way to start again', async () => {
    ssoGateway((call) =>
      call.url.startsWith('/test-idp/interactions/') ? { status: 404, data: { error: 'INTERACTION_NOT_FOUND', message: 'gone' } } : undefined,
    );
    renderPortal(`${BASE}sso-simulator?interaction=${INTERACTION}`);
    expect((await screen.findByRole('alert')).textContent).toBe('⚠This sign-in request has expired or was already answered. Please start again.');
    expect(screen.getByRole('link', { name: 'Start the sign-in again' }).getAttribute('href')).toBe(`${BASE}redirect-sso`);
  });

  it('SPEC §2: with the simulator feature off the route goes to the sign-in route (which the SSO rule turns to redirect-sso)', () => {
    const flags = { ...FEATURE_FLAGS, ssoSimulator: false };
    const context = {
      route: 'sso-simulator',
      auth: 'LOGGEDOUT',
      site: SITE,
      locale: 'en_us',
      search: '',
      flags,
      hasRegistrationData: false,
      hasPendingSignIn: false,
      hasNotificationInfo: false,
      device: null,
      mfaEnrolled: false,
      userType: 'CARDHOLDER',
      actingForUser: false,
      passwordChangeRequired: false,
    } as const;
    expect(decideRoute(context)).toEqual({ kind: 'redirect', route: 'login-form', search: '' });
    expect(decideRoute({ ...context, route: 'login-form' })).toEqual({ kind: 'redirect', route: 'redirect-sso', search: '' });
    expect(decideRoute({ ...context, flags: FEATURE_FLAGS })).toEqual({ kind: 'allow', clearOtpExpiry: false });
  });
});
