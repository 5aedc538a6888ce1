/**
 * What must never reach a log line (DESIGN "Contracts": card numbers never reach a log):
 * anything that looks like a card number, and the values of secret-bearing query parameters.
 */

/** 12 or more digits, optionally separated by single spaces or dashes: a PAN as typed or stored. */
const CARD_NUMBER_LIKE = /\d(?:[ -]?\d){11,}/.source;
/**
 * A UUID (8-4-4-4-12 hex, not inside a longer word): an id, never a PAN. About one random UUID in
 * 30 holds 12+ digits in a row across its dashes (e.g. a last group of 12 decimal digits), which the
 * card rule alone would cut, so job, session and correlation ids would go missing from the logs.
 */
const UUID = /(?<![\dA-Za-z])[\dA-Fa-f]{8}(?:-[\dA-Fa-f]{4}){3}-[\dA-Fa-f]{12}(?![\dA-Za-z])/.source;
/** UUIDs are tried first at each place, so their digits are never taken for a card number. */
const UUID_OR_CARD_NUMBER = new RegExp(`(${UUID})|${CARD_NUMBER_LIKE}`, 'g');
export const REDACTED = '[REDACTED]';

export function scrubCardNumbers(text: string): string {
  return text.replace(UUID_OR_CARD_NUMBER, (_match, uuid: string | undefined) => uuid ?? REDACTED);
}

export function containsCardNumber(text: string): boolean {
  return scrubCardNumbers(text) !== text;
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
