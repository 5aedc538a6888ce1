/**
 * SPEC §7 `X-HCAPTCHA-TOKEN`, ADR 0009 "Registration": the site's `captcha_required` makes the
 * header mandatory, and the token goes through a verifier: hCaptcha's siteverify when the gateway
 * has a secret (HCAPTCHA_SECRET, ADR 0013), the offline verifier for development and tests.
 */
export interface CaptchaVerifier {
  /** Whether `token` proves a person solved the captcha; `remoteIp` is the caller's address. */
  verify(token: string, remoteIp: string): Promise<boolean>;
}

/** Development and tests: any non-empty token passes (ADR 0009). */
export const offlineCaptchaVerifier: CaptchaVerifier = {
  verify: async (token) => token.trim() !== '',
};

export const CAPTCHA_HEADER = 'x-hcaptcha-token';

export const HCAPTCHA_SITEVERIFY_URL = 'https://api.hcaptcha.com/siteverify';
/** A slow hCaptcha must not hold a registration open; past this the token counts as not verified. */
export const HCAPTCHA_TIMEOUT_MS = 5_000;

export interface HcaptchaVerifierOptions {
  secret: string;
  /** Binds tokens to the portal's own site key when given (hCaptcha's `sitekey` check). */
  siteKey?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  siteverifyUrl?: string;
  /** Told why a verification could not be made (never the token or the secret). */
  onFailure?: (reason: string) => void;
}

/**
 * hCaptcha's server-side check: POST the token with the secret to siteverify, form-encoded, and
 * trust only `success: true`. Fails closed: a timeout, an outage, a non-2xx or an unreadable
 * answer is "not verified" (registration answers 400 CAPTCHA_INVALID and the app resets the captcha).
 */
export function hcaptchaVerifier(options: HcaptchaVerifierOptions): CaptchaVerifier {
  const send = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? HCAPTCHA_TIMEOUT_MS;
  const url = options.siteverifyUrl ?? HCAPTCHA_SITEVERIFY_URL;
  const fail = (reason: string): false => {
    options.onFailure?.(reason);
    return false;
  };
  return {
    verify: async (token, remoteIp) => {
      if (token.trim() === '') return false;
      const form = new URLSearchParams({ secret: options.secret, response: token, remoteip: remoteIp });
      if (options.siteKey) form.set('sitekey', options.siteKey);
      let response: Response;
      try {
        response = await send(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        return fail(error instanceof Error && error.name === 'TimeoutError' ? 'hCaptcha siteverify timed out' : 'hCaptcha siteverify could not be reached');
      }
      if (!response.ok) return fail(`hCaptcha siteverify answered ${response.status}`);
      const answer: unknown = await response.json().catch(() => null);
      if (typeof answer !== 'object' || answer === null) return fail('hCaptcha siteverify answered something that is not JSON');
      return (answer as { success?: unknown }).success === true;
    },
  };
}
