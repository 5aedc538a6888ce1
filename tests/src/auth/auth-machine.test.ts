import { describe, expect, it } from 'vitest';
import { INITIAL_AUTH_STATE, NO_RELOAD_ERROR_CODES, tokenTypeOf, transition, userTypeOf, type AuthEvent, type AuthState } from '../../../src/auth/auth-machine';

/** Runs events through the pure machine, answering the final state and every effect in order. */
function run(events: AuthEvent[], from: AuthState = INITIAL_AUTH_STATE) {
  let state = from;
  const effects: unknown[] = [];
  for (const event of events) {
    const next = transition(state, event);
    state = next.state;
    effects.push(...next.effects);
  }
  return { state, effects };
}

const check = (overrides: Partial<Extract<AuthEvent, { type: 'CHECK_REQUESTED' }>> = {}): AuthEvent => ({
  type: 'CHECK_REQUESTED',
  siteId: 'firstbank',
  locale: 'en_us',
  authenticatedCookie: 'true',
  userTypeCookie: 'CARDHOLDER',
  hasRefreshToken: false,
  ...overrides,
});

describe('§4 token type and user type', () => {
  it.each([
    [undefined, 'none'],
    ['true', 'signed-in'],
    ['false', 'pre-auth'],
    ['', 'pre-auth'],
  ] as const)('authenticated cookie %j gives %s', (cookie, type) => {
    expect(tokenTypeOf(cookie)).toBe(type);
  });

  it.each([
    [['ROLE_CONCIERGE'], 'CONCIERGE'],
    [['ROLE_CARDHOLDER'], 'CARDHOLDER'],
    [['firstbank', 'ROLE_CONCIERGE', 'ROLE_CARDHOLDER'], 'CONCIERGE'],
    [[], 'CARDHOLDER'],
  ])('authorities %j give %s', (authorities, type) => {
    expect(userTypeOf(authorities)).toBe(type);
  });
});

describe('§4 background check', () => {
  it('without the authenticated cookie: LOGGEDOUT, no call', () => {
    expect(run([check({ authenticatedCookie: undefined })])).toEqual({ state: { name: 'LOGGEDOUT', siteId: 'firstbank' }, effects: [] });
  });

  it('a pre-auth cookie (present, not "true") is not a sign-in: LOGGEDOUT', () => {
    expect(run([check({ authenticatedCookie: 'pending' })]).state).toEqual({ name: 'LOGGEDOUT', siteId: 'firstbank' });
  });

  it('with the cookie the background endpoint is called; passesBackgroundCheck true gives LOGGEDIN', () => {
    const { state, effects } = run([check(), { type: 'BACKGROUND_CHECK_ANSWERED', siteId: 'firstbank', passesBackgroundCheck: true }]);
    expect(effects).toEqual([{ type: 'CALL_BACKGROUND_CHECK', siteId: 'firstbank' }]);
    expect(state).toEqual({ name: 'LOGGEDIN', siteId: 'firstbank', userType: 'CARDHOLDER' });
  });

  it('passesBackgroundCheck false gives LOGGEDIN-INACTIVE, keeping the user type of the cookie', () => {
    const { state } = run([check({ userTypeCookie: 'CONCIERGE' }), { type: 'BACKGROUND_CHECK_ANSWERED', siteId: 'firstbank', passesBackgroundCheck: false }]);
    expect(state).toEqual({ name: 'LOGGEDIN-INACTIVE', siteId: 'firstbank', userType: 'CONCIERGE' });
  });

  it('USER_NOT_FOUND first saves the site locale, then rechecks', () => {
    const { state, effects } = run([
      check({ siteId: 'northbank', locale: 'fr_ca' }),
      { type: 'BACKGROUND_CHECK_FAILED', siteId: 'northbank', code: 'USER_NOT_FOUND' },
      { type: 'SITE_LOCALE_SAVED', siteId: 'northbank' },
      { type: 'BACKGROUND_CHECK_ANSWERED', siteId: 'northbank', passesBackgroundCheck: true },
    ]);
    expect(effects).toEqual([
      { type: 'CALL_BACKGROUND_CHECK', siteId: 'northbank' },
      { type: 'SAVE_SITE_LOCALE', siteId: 'northbank', locale: 'fr_ca' },
      { type: 'CALL_BACKGROUND_CHECK', siteId: 'northbank' },
    ]);
    expect(state.name).toBe('LOGGEDIN');
  });

  it('USER_NOT_FOUND a second time, or a failed save, ends LOGGEDOUT (no loop)', () => {
    const twice = run([
      check(),
      { type: 'BACKGROUND_CHECK_FAILED', siteId: 'firstbank', code: 'USER_NOT_FOUND' },
      { type: 'SITE_LOCALE_SAVED', siteId: 'firstbank' },
      { type: 'BACKGROUND_CHECK_FAILED', siteId: 'firstbank', code: 'USER_NOT_FOUND' },
    ]);
    expect(twice.state).toEqual({ name: 'LOGGEDOUT', siteId: 'firstbank' });
    const saveFailed = run([
      check(),
      { type: 'BACKGROUND_CHECK_FAILED', siteId: 'firstbank', code: 'USER_NOT_FOUND' },
      { type: 'SITE_LOCALE_SAVE_FAILED', siteId: 'firstbank' },
    ]);
    expect(saveFailed.state).toEqual({ name: 'LOGGEDOUT', siteId: 'firstbank' });
  });

  it('any other error gives LOGGEDOUT', () => {
    expect(run([check(), { type: 'BACKGROUND_CHECK_FAILED', siteId: 'firstbank', code: 'UNAUTHENTICATED' }]).state).toEqual({
      name: 'LOGGEDOUT',
      siteId: 'firstbank',
    });
  });
});

describe('§4 refresh-token retry', () => {
  it('LOGGEDOUT with a refresh token: refresh, then the check is repeated', () => {
    const { state, effects } = run([
      check({ authenticatedCookie: undefined, hasRefreshToken: true }),
      { type: 'REFRESH_SUCCEEDED', siteId: 'firstbank' },
      { type: 'BACKGROUND_CHECK_ANSWERED', siteId: 'firstbank', passesBackgroundCheck: true },
    ]);
    expect(effects).toEqual([
      { type: 'REFRESH_TOKEN', siteId: 'firstbank' },
      { type: 'CALL_BACKGROUND_CHECK', siteId: 'firstbank' },
    ]);
    expect(state.name).toBe('LOGGEDIN');
  });

  it('a failed refresh removes the refresh token: LOGGEDOUT', () => {
    const { state, effects } = run([check({ authenticatedCookie: undefined, hasRefreshToken: true }), { type: 'REFRESH_FAILED', siteId: 'firstbank' }]);
    expect(effects).toEqual([{ type: 'REFRESH_TOKEN', siteId: 'firstbank' }, { type: 'REMOVE_REFRESH_TOKEN' }]);
    expect(state).toEqual({ name: 'LOGGEDOUT', siteId: 'firstbank' });
  });

  it('the refresh is tried once per check: a background error after a refresh ends LOGGEDOUT', () => {
    const { state, effects } = run([
      check({ hasRefreshToken: true }),
      { type: 'BACKGROUND_CHECK_FAILED', siteId: 'firstbank', code: 'UNAUTHENTICATED' },
      { type: 'REFRESH_SUCCEEDED', siteId: 'firstbank' },
      { type: 'BACKGROUND_CHECK_FAILED', siteId: 'firstbank', code: 'UNAUTHENTICATED' },
    ]);
    expect(effects.filter((effect) => (effect as { type: string }).type === 'REFRESH_TOKEN')).toHaveLength(1);
    expect(state.name).toBe('LOGGEDOUT');
  });
});

describe('§4 alternative check on a received token', () => {
  it('authorities containing the site id give LOGGEDIN and store the user type until exp', () => {
    const { state, effects } = run([{ type: 'TOKEN_RECEIVED', siteId: 'firstbank', authorities: ['firstbank', 'ROLE_CONCIERGE'], exp: 1_900_000_000 }]);
    expect(state).toEqual({ name: 'LOGGEDIN', siteId: 'firstbank', userType: 'CONCIERGE' });
    expect(effects).toEqual([{ type: 'STORE_USER_TYPE', userType: 'CONCIERGE', expiresAt: 1_900_000_000 }]);
  });

  it('authorities without the site id give LOGGEDIN-INACTIVE', () => {
    expect(run([{ type: 'TOKEN_RECEIVED', siteId: 'firstbank', authorities: ['ROLE_CARDHOLDER'], exp: 1 }]).state.name).toBe('LOGGEDIN-INACTIVE');
  });
});

describe('§4 authentication failure', () => {
  const signedIn: AuthState = { name: 'LOGGEDIN', siteId: 'firstbank', userType: 'CARDHOLDER' };

  it('sets logged-out, clears the session cookies and reloads the sign-in route', () => {
    expect(run([{ type: 'AUTHENTICATION_FAILED', code: 'UNAUTHENTICATED' }], signedIn)).toEqual({
      state: { name: 'LOGGEDOUT', siteId: 'firstbank' },
      effects: [
        { type: 'CLEAR_SESSION_COOKIES', concierge: false },
        { type: 'GO_TO_SIGN_IN', reload: true },
      ],
    });
  });

  it.each([...NO_RELOAD_ERROR_CODES])('%s goes to the sign-in route without a reload', (code) => {
    expect(run([{ type: 'AUTHENTICATION_FAILED', code }], signedIn).effects).toContainEqual({ type: 'GO_TO_SIGN_IN', reload: false });
  });

  it('lists exactly the six codes of §4', () => {
    expect([...NO_RELOAD_ERROR_CODES].sort()).toEqual([
      'DEVICE_LOCKED',
      'MFA_OTP_REQUIRED',
      'OTP_REQUIRED',
      'OTP_REQUIRED_EMAIL',
      'OTP_REQUIRED_PHONE',
      'USER_LOCKED',
    ]);
  });

  it('§8: a concierge also loses the third (support-details) cookie', () => {
    const concierge: AuthState = { name: 'LOGGEDIN', siteId: 'firstbank', userType: 'CONCIERGE' };
    expect(run([{ type: 'AUTHENTICATION_FAILED', code: 'UNAUTHENTICATED' }], concierge).effects[0]).toEqual({ type: 'CLEAR_SESSION_COOKIES', concierge: true });
  });
});

it("ignores an answer for a check that another site's check replaced", () => {
  const checking = transition(INITIAL_AUTH_STATE, check({ siteId: 'northbank' })).state;
  expect(transition(checking, { type: 'BACKGROUND_CHECK_ANSWERED', siteId: 'firstbank', passesBackgroundCheck: true })).toEqual({
    state: checking,
    effects: [],
  });
});

it('ignores answers that arrive in a state not waiting for them', () => {
  const settled: AuthState = { name: 'LOGGEDOUT', siteId: 'firstbank' };
  for (const event of [
    { type: 'BACKGROUND_CHECK_ANSWERED', siteId: 'firstbank', passesBackgroundCheck: true },
    { type: 'BACKGROUND_CHECK_FAILED', siteId: 'firstbank', code: 'USER_NOT_FOUND' },
    { type: 'SITE_LOCALE_SAVED', siteId: 'firstbank' },
    { type: 'REFRESH_SUCCEEDED', siteId: 'firstbank' },
    { type: 'REFRESH_FAILED', siteId: 'firstbank' },
  ] as AuthEvent[]) {
    expect(transition(settled, event)).toEqual({ state: settled, effects: [] });
  }
});
