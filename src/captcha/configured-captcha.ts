import type { CaptchaProvider } from '../api/gateway-api';
import { offlineDevelopmentCaptcha } from '../app/offline-development-captcha';
import { createHcaptchaProvider } from './hcaptcha-provider';

/**
 * The captcha of this build (ADR 0013): hCaptcha when the app was built with a site key
 * (VITE_HCAPTCHA_SITE_KEY), the offline development provider otherwise, so development and the
 * tests never load a remote script.
 */
export function configuredCaptchaProvider(siteKey: string | undefined, language: () => string): CaptchaProvider {
  return siteKey?.trim() ? createHcaptchaProvider({ siteKey: siteKey.trim(), language }) : offlineDevelopmentCaptcha;
}
