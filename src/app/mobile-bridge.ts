/**
 * The bridge to the mobile app when the portal runs in its webview (SPEC §1 "query parameter
 * isMobile marks such sessions", §3 "Feature events login, logout, editProfile, deleteProfile",
 * §4 logout notifies the bridge). React Native exposes `ReactNativeWebView.postMessage`, WKWebView
 * `webkit.messageHandlers.<name>.postMessage`; in a plain browser neither exists and a notice does nothing.
 */
export type FeatureEvent = 'login' | 'logout' | 'editProfile' | 'deleteProfile';

/** The message handler name the iOS app registers. */
export const IOS_MESSAGE_HANDLER = 'rewardsPortal';

/** Session storage: "true" once a page of this tab was opened with isMobile=true (ours; §9 names none). */
export const MOBILE_SESSION_KEY = 'is_mobile';

export interface MobileBridgeHost {
  ReactNativeWebView?: { postMessage(message: string): void };
  webkit?: { messageHandlers?: Readonly<Record<string, { postMessage(message: unknown): void } | undefined>> };
}

type SessionMarkStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * §1: `isMobile=true` marks the tab's session as the app's webview, for every later page of the
 * session (the query does not travel along every navigation); `isMobile=false` ends the mark.
 */
export function rememberMobileSession(search: string, storage: SessionMarkStorage = window.sessionStorage): void {
  const isMobile = new URLSearchParams(search).get('isMobile');
  if (isMobile === 'true') storage.setItem(MOBILE_SESSION_KEY, 'true');
  else if (isMobile === 'false') storage.removeItem(MOBILE_SESSION_KEY);
}

export function isMobileSession(storage: Pick<Storage, 'getItem'> = window.sessionStorage): boolean {
  return storage.getItem(MOBILE_SESSION_KEY) === 'true';
}

/** The page's bridge in a session marked by isMobile, else none: a plain visit never talks to a native host. */
export function webviewBridge(): MobileBridgeHost {
  return typeof window !== 'undefined' && isMobileSession() ? (window as MobileBridgeHost) : {};
}

/** Tells the app about a §3 feature event through whichever bridge the host has; none, nothing happens. */
export function notifyMobileApp(feature: FeatureEvent, host: MobileBridgeHost = webviewBridge()): void {
  const message = { type: 'feature', feature };
  try {
    host.ReactNativeWebView?.postMessage(JSON.stringify(message));
    host.webkit?.messageHandlers?.[IOS_MESSAGE_HANDLER]?.postMessage(message);
  } catch {
    // A notice only: a failing native host must never stop a sign-in or a sign-out half way.
  }
}
