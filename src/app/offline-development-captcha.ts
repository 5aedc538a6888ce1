import type { CaptchaProvider } from '../api/gateway-api';

/**
 * The captcha provider while the portal has no hCaptcha (issue 10 replaces it): it answers a fixed
 * local token without asking anyone, so §7's X-HCAPTCHA-TOKEN is present and the gateway's offline
 * verifier (ADR 0009: any non-empty token) lets registration through. It proves nothing about the
 * visitor; it only keeps the header rule exercised until the real check exists.
 */
export const OFFLINE_DEVELOPMENT_CAPTCHA_TOKEN = 'offline-development-captcha';

export const offlineDevelopmentCaptcha: CaptchaProvider = {
  token: () => Promise.resolve(OFFLINE_DEVELOPMENT_CAPTCHA_TOKEN),
};
