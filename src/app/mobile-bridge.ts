/**
 * The bridge to the mobile app when the portal runs in its webview (SPEC §1 isMobile, §3 "Feature
 * events login, logout, editProfile, deleteProfile", §4 logout notifies the bridge). React Native
 * exposes `ReactNativeWebView.postMessage`, WKWebView `webkit.messageHandlers.<name>.postMessage`;
 * in a plain browser neither exists and a notice does nothing.
 */
export type FeatureEvent = 'login' | 'logout' | 'editProfile' | 'deleteProfile';

/** The message handler name the iOS app registers. */
export const IOS_MESSAGE_HANDLER = 'rewardsPortal';

export interface MobileBridgeHost {
  ReactNativeWebView?: { postMessage(message: string): void };
  webkit?: { messageHandlers?: Readonly<Record<string, { postMessage(message: unknown): void } | undefined>> };
}

export function notifyMobileApp(feature: FeatureEvent, host: MobileBridgeHost = globalThis as MobileBridgeHost): void {
  const message = { type: 'feature', feature };
  host.ReactNativeWebView?.postMessage(JSON.stringify(message));
  host.webkit?.messageHandlers?.[IOS_MESSAGE_HANDLER]?.postMessage(message);
}
