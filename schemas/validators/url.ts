/**
 * SPEC §5 "Query and URL: params must not contain tags, URLs or relative paths. Return URLs must
 * contain a {{locale}}/ segment. External URLs must look like a host with optional path."
 * SPEC §2 "returnurl is stored only if valid; selectedCause is appended if valid".
 *
 * These read values straight from a URL or a request, so they take `unknown`. A return URL may
 * never lead off the site's origin (ADR 0005 "Return URLs"): only root-relative paths and absolute URLs of
 * the site's own origin pass, and every percent-decoding of the value must be as harmless as the value.
 */
import { fieldError, type FieldError } from './field-error';

/** Control characters (including the Unicode line separators) and backslashes. */
// eslint-disable-next-line no-control-regex -- finding control characters is what this expression is for
const CONTROL_OR_BACKSLASH = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\\]/;
/** The same plus any whitespace: a return URL never holds a space, even encoded. */
// eslint-disable-next-line no-control-regex -- finding control characters is what this expression is for
const CONTROL_WHITESPACE_OR_BACKSLASH = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\\\s]/;
/** `<` opening an HTML-like tag, comment or declaration. */
const TAG = /<\s*[a-z!/?]/i;
/** A scheme that runs or embeds content, an http(s) URL, or a network path. */
const URL_LIKE = /\b(?:javascript|vbscript|data|file|https?)\s*:|:\/\/|\/\//i;
/** `./` (and so `../`): a relative path. */
const RELATIVE_PATH = /\.\//;
/**
 * Long enough for any of the portal's own paths with a query; the bound also keeps the repeated
 * decoding below cheap on a request.
 */
const URL_VALUE_MAX_LENGTH = 2048;

/**
 * Decodes every `%XX` of an ASCII character. Unlike `decodeURIComponent` it never throws, and it
 * reveals the ASCII every payload here is made of (`%2F%2F`, `%3Cscript`, `%0A`); encoded
 * non-ASCII text stays as it is.
 */
function percentDecodeAscii(value: string): string {
  return value.replace(/%([0-7][0-9A-Fa-f])/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The value and each successive decoding of it (`%252F` gives `%2F` gives `/`), so an encoded `//`
 * or `javascript:` is seen however often a consumer decodes. Each round shortens the text, so
 * this ends.
 */
function decodings(value: string): string[] {
  // Stryker disable next-line ArrayDeclaration: decoding keeps every match isHarmless finds (none holds a %, a digit or, after one, a word's start), so the decoded forms alone refuse what the value shows
  const forms = [value];
  for (let decoded = percentDecodeAscii(value); decoded !== forms[forms.length - 1]; decoded = percentDecodeAscii(decoded)) {
    forms.push(decoded);
  }
  return forms;
}

function isHarmless(form: string, unsafeCharacter: RegExp): boolean {
  return !unsafeCharacter.test(form) && !TAG.test(form) && !URL_LIKE.test(form) && !RELATIVE_PATH.test(form);
}

/** A query parameter (selectedCause and the like): no tags, URLs or relative paths, even encoded. */
export function validateQueryParam(value: unknown): FieldError | null {
  if (typeof value !== 'string' || value.length > URL_VALUE_MAX_LENGTH) return fieldError('invalid');
  return decodings(value).every((form) => isHarmless(form, CONTROL_OR_BACKSLASH)) ? null : fieldError('invalid');
}

/** SPEC §2: a locale looks like xx_yy; in a return URL it is a whole path segment. */
const LOCALE_SEGMENT = /^\/(?:[^/?#]*\/)*[a-z]{2}_[a-z]{2}\//;
/** Printable ASCII: what our own links are made of once percent-encoded. */
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/** The origin (`https://host[:port]`) of `origin`, lowercased by the URL parser; `null` if it is not one. */
function normalizedOrigin(origin: unknown): string | null {
  if (typeof origin !== 'string') return null;
  try {
    const parsed = new URL(origin);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** The root-relative part of a return URL: the value itself, or what follows the site's origin. */
function rootRelativePart(value: string, origin: string | null): string | null {
  if (value.startsWith('/')) return value;
  if (origin === null) return null;
  const prefix = value.slice(0, origin.length);
  // Stryker disable next-line ConditionalExpression: a path not starting with / fails LOCALE_SEGMENT next; the check says what is meant
  return prefix.toLowerCase() === origin && value[origin.length] === '/' ? value.slice(origin.length) : null;
}

/**
 * A return URL: a root-relative path (`/en_us/account/profile`) or an absolute URL of `origin`,
 * whose path has a locale segment (`en_us/`). Refused: other origins, `//host` and `/\host`,
 * schemes such as `javascript:`, userinfo (`https://site@evil`), backslashes, whitespace and
 * control characters, encoded variants of any of these, relative paths and tags.
 */
export function validateReturnUrl(value: unknown, options: { origin?: string } = {}): FieldError | null {
  if (typeof value !== 'string' || value.length > URL_VALUE_MAX_LENGTH || !PRINTABLE_ASCII.test(value)) {
    return fieldError('invalid');
  }
  const path = rootRelativePart(value, normalizedOrigin(options.origin));
  // `//host` and `/\host` are refused by `isHarmless`, with the other URL-like and backslash forms.
  const valid =
    // Stryker disable next-line ConditionalExpression: LOCALE_SEGMENT refuses null too ("null" has no leading /); the check narrows the type
    path !== null && LOCALE_SEGMENT.test(path) && decodings(path).every((form) => isHarmless(form, CONTROL_WHITESPACE_OR_BACKSLASH)) && resolvesOnSite(path);
  return valid ? null : fieldError('invalid');
}

/**
 * Defence in depth: the URL parser, the same one the browser navigates with, must keep the path
 * on the origin it is resolved against.
 */
// Stryker disable ConditionalExpression,BlockStatement,BooleanLiteral: defence in depth; every path reaching here starts with one / and holds no backslash or control character, so the parser keeps it on the probe origin and never throws
function resolvesOnSite(path: string): boolean {
  const probeOrigin = 'https://return-url.invalid';
  try {
    return new URL(path, probeOrigin).origin === probeOrigin;
  } catch {
    return false;
  }
}
// Stryker restore all

/** An external URL: a host name (optionally with an http(s) scheme and a port) and an optional path. */
const EXTERNAL_URL_SHAPE = /^(?:https?:\/\/)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(?::[0-9]{1,5})?(?:\/[\x21-\x7e]*)?$/i;

export function isExternalUrlShape(value: unknown): boolean {
  return typeof value === 'string' && EXTERNAL_URL_SHAPE.test(value) && !value.includes('\\') && !TAG.test(value);
}
