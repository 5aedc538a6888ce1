import { toLatinDigits } from '../locales/intl-format';

/**
 * A six-digit code (ADR 0008: sign-in and recovery passcodes, authenticator codes): the one rule the browser's fields
 * and the gateway's request schemas share.
 */
export const ONE_TIME_CODE_PATTERN = '^[0-9]{6}$';
export const ONE_TIME_CODE = new RegExp(ONE_TIME_CODE_PATTERN);

/**
 * A code as the person typed or pasted it, read as its digits: the spaces, dashes and dots mails, texts and
 * authenticator apps group it with ("123 456", "123-456") go, and digits of another script (an Arabic keyboard's
 * ١٢٣) become Latin. Anything else stays, so a wrong code is still refused as such.
 */
export function readOneTimeCode(typed: string): string {
  return toLatinDigits(typed).replace(/[\s\u00a0\u202f\-\u2010-\u2015.]/gu, '');
}
