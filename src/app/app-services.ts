import type { CaptchaProvider, GatewayClientOverrides } from '../api/gateway-api';
import type { TokenStorage } from './browser-storage';
import type { CookieJar } from './browser-cookies';
import type { openMobileApp } from './mobile-deep-link';

/**
 * What the store's effect runners and the route loaders need from the world outside Redux:
 * cookies, local storage, and a way to go to the sign-in route. The browser's are wired in
 * main.tsx; tests pass their own.
 */
export interface AppServices {
  cookies: CookieJar;
  localStore: TokenStorage;
  /** §4: to the sign-in route keeping the query; `reload` loads the page afresh. */
  goToSignIn: (reload: boolean) => void;
  /** §7 captcha tokens (hCaptcha, ADR 0013); when none is given, the offline development provider. */
  captcha?: CaptchaProvider;
  /** The visitor's user agent (the loaders' §2 mobile deep links); `navigator.userAgent` when not given. */
  userAgent?: () => string;
  /** §2 mobile deep link: opens the app; `openMobileApp` when not given. */
  openApp?: typeof openMobileApp;
  /** The gateway client in place of the browser's, for the server renderer's store (ADR 0024). */
  gatewayClient?: GatewayClientOverrides;
}
