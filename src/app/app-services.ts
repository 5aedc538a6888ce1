import type { CaptchaProvider, TokenStorage } from '../api/gateway-api';
import type { CookieJar } from './browser-cookies';

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
}
