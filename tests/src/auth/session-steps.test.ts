import { describe, expect, it, vi } from 'vitest';
import type { TokenStorage } from '../../../src/app/browser-storage';
import type { CookieJar } from '../../../src/app/browser-cookies';
import { IOS_MESSAGE_HANDLER, notifyMobileApp } from '../../../src/app/mobile-bridge';
import { finishSignIn, signOut, type SessionDeps } from '../../../src/auth/session-steps';
import { isTrustedOtpValid, rememberTrustedOtp, TRUSTED_OTP_SECONDS, verifiedUntilSeconds } from '../../../src/auth/trusted-otp';
import { groupedKey, svgDataUrl } from '../../../src/screens/sign-in/totp-key';

/** SPEC §4 sign-in and logout effects, §9 otp_expiry and session_expiry, §3 feature events to the mobile bridge. */
const NOW = Date.UTC(2030, 0, 1, 12, 0, 0);

function memoryStore(initial: Record<string, string> = {}): TokenStorage & { entries: Map<string, string> } {
  const entries = new Map(Object.entries(initial));
  return { entries, get: (key) => entries.get(key) ?? null, set: (key, value) => void entries.set(key, value), remove: (key) => void entries.delete(key) };
}

function fakeDeps(options: { sessionExtension?: boolean; store?: ReturnType<typeof memoryStore>; cookies?: Record<string, string> } = {}) {
  const cookieValues = new Map(Object.entries(options.cookies ?? {}));
  const cookies: CookieJar = {
    get: (name) => cookieValues.get(name),
    set: (name, value) => void cookieValues.set(name, value),
    remove: (name) => void cookieValues.delete(name),
  };
  const actions: { type: string; payload?: unknown }[] = [];
  const dispatch = vi.fn((action: unknown) => {
    if (typeof action === 'function') return Promise.resolve({ data: {} });
    actions.push(action as { type: string });
    return action;
  });
  const postMessage = vi.fn();
  const deps: SessionDeps = {
    dispatch: dispatch,
    cookies,
    localStore: options.store ?? memoryStore(),
    flags: { sessionExtension: options.sessionExtension ?? false },
    now: () => NOW,
    bridge: { ReactNativeWebView: { postMessage } },
  };
  return { deps, cookieValues, actions, postMessage, dispatch };
}

describe('finishSignIn', () => {
  it('§9 session_expiry only with session extension on; §4 otp_expiry only for a trusted device; the check runs again', () => {
    const store = memoryStore();
    const { deps, actions, postMessage } = fakeDeps({ sessionExtension: true, store, cookies: { gmap_authenticated: 'true' } });
    finishSignIn(deps, { siteId: 'firstbank', locale: 'en_us' }, { expiresIn: 1800, trustedDevice: true });
    expect(store.entries.get('session_expiry')).toBe(String(NOW / 1000 + 1800));
    expect(store.entries.get('otp_expiry')).toBe(String(NOW / 1000 + TRUSTED_OTP_SECONDS));
    expect(actions.map((action) => action.type)).toEqual(['signIn/signInEnded', 'auth/event']);
    expect(actions[1]?.payload).toMatchObject({ type: 'CHECK_REQUESTED', siteId: 'firstbank', authenticatedCookie: 'true' });
    expect(postMessage).toHaveBeenCalledWith(JSON.stringify({ type: 'feature', feature: 'login' }));

    const plain = fakeDeps();
    finishSignIn(plain.deps, { siteId: 'firstbank', locale: 'en_us' }, { expiresIn: 1800, trustedDevice: false });
    expect([...(plain.deps.localStore as ReturnType<typeof memoryStore>).entries.keys()]).toEqual([]);
  });
});

describe('signOut (§4 logout)', () => {
  it('revokes, clears session_expiry (extension on), otp_expiry and tokens; concierge cookies; bridge told', async () => {
    const store = memoryStore({ session_expiry: '1', otp_expiry: '2', refresh_token: 'r', access_token: 'a', unrelated: 'kept' });
    const { deps, cookieValues, actions, postMessage, dispatch } = fakeDeps({
      sessionExtension: true,
      store,
      cookies: { gmap_authenticated: 'true', gmap_user_type: 'CONCIERGE', gmap_support_details: 'x', other: 'kept' },
    });
    await signOut(deps, { siteId: 'firstbank', locale: 'en_us' }, 'CONCIERGE');
    expect(typeof dispatch.mock.calls[0]?.[0]).toBe('function'); // the revoke call comes first
    expect([...store.entries.keys()]).toEqual(['unrelated']);
    expect([...cookieValues.keys()]).toEqual(['other']);
    expect(actions.at(-1)?.payload).toMatchObject({ type: 'CHECK_REQUESTED', authenticatedCookie: undefined, hasRefreshToken: false });
    expect(postMessage).toHaveBeenCalledWith(JSON.stringify({ type: 'feature', feature: 'logout' }));
  });

  it('keeps session_expiry when session extension is off (§4 "when session extension is on"); a card holder keeps the user-type cookie', async () => {
    const store = memoryStore({ session_expiry: '1' });
    const { deps, cookieValues } = fakeDeps({ store, cookies: { gmap_user_type: 'CARDHOLDER' } });
    await signOut(deps, { siteId: 'firstbank', locale: 'en_us' }, 'CARDHOLDER');
    expect(store.entries.get('session_expiry')).toBe('1');
    expect(cookieValues.get('gmap_user_type')).toBe('CARDHOLDER');
  });
});

describe('§4 trusted-OTP state', () => {
  it('valid until its expiry passes, then cleared', () => {
    const store = memoryStore();
    rememberTrustedOtp(store, NOW);
    expect(isTrustedOtpValid(store, NOW + (TRUSTED_OTP_SECONDS - 1) * 1000)).toBe(true);
    expect(isTrustedOtpValid(store, NOW + TRUSTED_OTP_SECONDS * 1000)).toBe(false);
    expect(store.entries.has('otp_expiry')).toBe(false);
    store.set('otp_expiry', 'garbage');
    expect(isTrustedOtpValid(store, NOW)).toBe(false);
    expect(store.entries.has('otp_expiry')).toBe(false);
  });

  it('verifiedUntil as ISO text, epoch seconds or milliseconds; 15 minutes when unreadable', () => {
    expect(verifiedUntilSeconds('2030-01-01T12:15:00Z', NOW)).toBe(NOW / 1000 + 900);
    expect(verifiedUntilSeconds(NOW / 1000 + 60, NOW)).toBe(NOW / 1000 + 60);
    expect(verifiedUntilSeconds(NOW + 60_000, NOW)).toBe(NOW / 1000 + 60);
    expect(verifiedUntilSeconds(undefined, NOW)).toBe(NOW / 1000 + 900);
  });
});

describe('mobile bridge and TOTP key display', () => {
  it('posts feature events to React Native and WKWebView; does nothing without a bridge', () => {
    const native = vi.fn();
    const ios = vi.fn();
    notifyMobileApp('logout', { ReactNativeWebView: { postMessage: native }, webkit: { messageHandlers: { [IOS_MESSAGE_HANDLER]: { postMessage: ios } } } });
    expect(native).toHaveBeenCalledWith('{"type":"feature","feature":"logout"}');
    expect(ios).toHaveBeenCalledWith({ type: 'feature', feature: 'logout' });
    expect(() => notifyMobileApp('login', {})).not.toThrow();
  });

  it('groups the key in fours and encodes the SVG as a data: URL', () => {
    expect(groupedKey('JBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP');
    expect(groupedKey('abc de')).toBe('abcd e');
    expect(svgDataUrl('<svg/>')).toBe(`data:image/svg+xml;base64,${btoa('<svg/>')}`);
  });
});
