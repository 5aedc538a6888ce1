// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isMobileSession, MOBILE_SESSION_KEY, notifyMobileApp, rememberMobileSession, webviewBridge } from '../../../src/app/mobile-bridge';

/** SPEC §1 "query parameter isMobile marks such sessions"; §3 feature events go to the bridge only then. */
afterEach(() => {
  window.sessionStorage.clear();
  delete (window as { ReactNativeWebView?: unknown }).ReactNativeWebView;
});

describe('§1 isMobile marks the webview session', () => {
  it('isMobile=true marks the session, later pages without the query keep it, isMobile=false ends it', () => {
    expect(isMobileSession()).toBe(false);
    rememberMobileSession('?isMobile=true&returnurl=%2Fen_us%2Faccount%2Fprofile');
    expect(window.sessionStorage.getItem(MOBILE_SESSION_KEY)).toBe('true');
    rememberMobileSession('');
    expect(isMobileSession()).toBe(true);
    rememberMobileSession('?isMobile=false');
    expect(isMobileSession()).toBe(false);
  });

  it.each(['?isMobile=1', '?isMobile=yes', '?ismobile=true', '?isMobile='])('%s does not mark it', (search) => {
    rememberMobileSession(search);
    expect(isMobileSession()).toBe(false);
  });
});

describe('§3 feature events through the page bridge', () => {
  it('in a marked session the page bridge hears the event', () => {
    const postMessage = vi.fn();
    (window as { ReactNativeWebView?: unknown }).ReactNativeWebView = { postMessage };
    rememberMobileSession('?isMobile=true');
    notifyMobileApp('editProfile');
    expect(postMessage.mock.calls).toEqual([['{"type":"feature","feature":"editProfile"}']]);
  });

  it('without isMobile nothing is posted, even when the page has a bridge', () => {
    const postMessage = vi.fn();
    (window as { ReactNativeWebView?: unknown }).ReactNativeWebView = { postMessage };
    expect(webviewBridge()).toEqual({});
    notifyMobileApp('login');
    expect(postMessage).not.toHaveBeenCalled();
  });

  it('a marked session without a bridge, or with a bridge that throws, goes on without an error', () => {
    rememberMobileSession('?isMobile=true');
    expect(() => notifyMobileApp('logout')).not.toThrow();
    (window as { ReactNativeWebView?: unknown }).ReactNativeWebView = {
      postMessage: () => {
        throw new Error('native side gone');
      },
    };
    expect(() => notifyMobileApp('logout')).not.toThrow();
  });
});
