/**
 * SPEC §7 `X-HCAPTCHA-TOKEN`, ADR 0009 "Registration": the site's `captcha_required` makes the
 * header mandatory, and the token goes through a verifier. hCaptcha's own verifier arrives with
 * issue 10; until then the offline verifier stands in.
 */
export interface CaptchaVerifier {
  /** Whether `token` proves a person solved the captcha; `remoteIp` is the caller's address. */
  verify(token: string, remoteIp: string): Promise<boolean>;
}

/** This build's verifier: any non-empty token passes (ADR 0009). */
export const offlineCaptchaVerifier: CaptchaVerifier = {
  verify: async (token) => token.trim() !== '',
};

export const CAPTCHA_HEADER = 'x-hcaptcha-token';
