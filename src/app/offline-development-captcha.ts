import type { CaptchaProvider } from '../api/gateway-api';

/**
 * The captcha provider of development and tests, and of any build without an hCaptcha site key
 * (ADR 0013, `src/captcha/configured-captcha.ts`): it answers a fixed local token without asking
 * anyone, so §7's X-HCAPTCHA-TOKEN is present and the gateway's offline verifier (ADR 0009: any
 * non-empty token) lets registration through. It proves nothing about the visitor, and no remote
 * script is loaded.
 */
export const OFFLINE_DEVELOPMENT_CAPTCHA_TOKEN = 'offline-development-captcha';

export const offlineDevelopmentCaptcha: CaptchaProvider = {
  token: () => Promise.resolve(OFFLINE_DEVELOPMENT_CAPTCHA_TOKEN),
};
