/**
 * What must never reach a log line (DESIGN "Contracts": card numbers never reach a log):
 * anything that looks like a card number, and the values of secret-bearing query parameters.
 */

/** 12 or more digits, optionally separated by single spaces or dashes: a PAN as typed or stored. */
const CARD_NUMBER_LIKE = /\d(?:[ -]?\d){11,}/;
const EVERY_CARD_NUMBER_LIKE = new RegExp(CARD_NUMBER_LIKE.source, 'g');
export const REDACTED = '[REDACTED]';

export function scrubCardNumbers(text: string): string {
  return text.replace(EVERY_CARD_NUMBER_LIKE, REDACTED);
}

export function containsCardNumber(text: string): boolean {
  return CARD_NUMBER_LIKE.test(text);
}

/** A JSON string literal, escapes included. */
const JSON_STRING = /"(?:[^"\\]|\\.)*"/g;

/**
 * Scrubs every string inside one serialized JSON log line and leaves numbers alone, so a
 * 13-digit epoch timestamp or a long response time stays a valid number.
 */
export function scrubJsonLine(line: string): string {
  return line.replace(JSON_STRING, scrubCardNumbers);
}

/** Query parameter names whose values are secrets (SPEC §3 login payload, §7 token calls, SSO). */
const SENSITIVE_NAME = /password|passcode|otp|token|secret|assertion|recovery_?code|^(?:pan|code|cvv|cvc|pin|session)$/i;

/** The URL with the value of every sensitive query parameter replaced by [REDACTED]. */
export function redactSensitiveQuery(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const separator = pair.indexOf('=');
      const rawName = separator === -1 ? pair : pair.slice(0, separator);
      return SENSITIVE_NAME.test(safeDecode(rawName)) ? `${rawName}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, queryStart)}?${query}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
