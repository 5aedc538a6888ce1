/**
 * The characters no field may hold, whatever its rule (docs/decisions/0005-validators.md
 * "Characters"). Error key `invalidCharacter`, so the browser says it next to the field and the
 * gateway names the field with the same key.
 */
import { fieldError, type FieldError } from './field-error';

/** Unicode category Cc: the C0 controls (NUL, tab, line feed …), DEL and the C1 controls. */
// eslint-disable-next-line no-control-regex -- finding control characters is what this expression is for
const CONTROL_CHARACTER = /[\u0000-\u001F\u007F-\u009F]/;

/**
 * Invisible characters that change how the text around them reads, or hide inside it: the bidi
 * embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), the line and paragraph
 * separators (U+2028, U+2029), zero width space (U+200B), the word joiner and invisible operators
 * (U+2060–U+2064), the deprecated format controls (U+206A–U+206F), the byte order mark (U+FEFF),
 * the interlinear annotation marks (U+FFF9–U+FFFB) and the noncharacters U+FFFE and U+FFFF.
 * Zero width (non-)joiners and the left-to-right, right-to-left and Arabic letter marks stay
 * allowed: Persian, Indic scripts, emoji and right-to-left names need them.
 */
const HIDDEN_FORMATTING = /[\u200B\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB\uFFFE\uFFFF]/;

/** A UTF-16 surrogate without its other half: no Unicode character, and PostgreSQL refuses it. */
function hasLoneSurrogate(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const unit = value.charCodeAt(index);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    const next = value.charCodeAt(index + 1);
    if (unit > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return true;
    index++;
  }
  return false;
}

/**
 * False for text holding a control character or a lone surrogate: no value the gateway stores,
 * logs or mails may hold one (PostgreSQL refuses NUL and lone surrogates outright; the others
 * break lines in logs, mails and exports). The gateway applies this to every string it is sent.
 */
export function isStorableText(value: string): boolean {
  return !CONTROL_CHARACTER.test(value) && !hasLoneSurrogate(value);
}

/** True for text holding a character of `HIDDEN_FORMATTING`. */
export function hasHiddenFormatting(value: string): boolean {
  return HIDDEN_FORMATTING.test(value);
}

/**
 * `invalidCharacter` for a value a person typed or pasted that holds a control character, a lone
 * surrogate or hidden formatting; `null` otherwise. Every field with a rule is checked with it first.
 */
export function validateCharacters(value: string): FieldError | null {
  return isStorableText(value) && !hasHiddenFormatting(value) ? null : fieldError('invalidCharacter');
}
