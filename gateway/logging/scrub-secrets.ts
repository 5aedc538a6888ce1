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

/**
 * The URL without its query string: the query may hold secrets (SPEC §3 login payload, §7 token calls,
 * SSO), so no log line carries any of it, and the path is what says which call it was.
 */
export function withoutQuery(url: string): string {
  const queryStart = url.indexOf('?');
  return queryStart === -1 ? url : url.slice(0, queryStart);
}
