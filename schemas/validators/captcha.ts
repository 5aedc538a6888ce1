/**
 * SPEC §5 "Captcha config: language code word characters and hyphens; flags true or false; host
 * attributes start with a word character." These values end up in the captcha script's URL and
 * attributes, so anything else is refused.
 */

export function isCaptchaLanguageCode(value: unknown): boolean {
  return typeof value === 'string' && /^[\w-]+$/.test(value);
}

export function isCaptchaFlag(value: unknown): value is 'true' | 'false' {
  return value === 'true' || value === 'false';
}

/** Starts with a word character; the rest is what a host name (with a port) is made of. */
export function isCaptchaHostAttribute(value: unknown): boolean {
  return typeof value === 'string' && /^\w[\w.:-]*$/.test(value);
}
