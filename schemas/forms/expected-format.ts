/**
 * What a formatted field (phone, national id, postal code; SPEC §3 user_enrollment, §5) tells a
 * person it expects: the author's example when the site gives one (`phone_example`,
 * `national_id_example`, `postal_code_example`), else the site's mask, else a shape read from a
 * regexp of digits only ("11 digits"), else only that the site has its own format.
 * The translator puts it in the field's `ui:options.expectedFormat`; the form shows `hintKey`
 * under the label and, for an `invalid` value, the text of `errorKey` instead of the generic one.
 */
import { CVV_PATTERN } from '../validators/cvv';
import type { RuleOptionValue } from './json-schema';

export interface ExpectedFormat {
  /** Content key (`form` group) of the visible hint; absent when there is nothing useful to show. */
  hintKey?: string;
  /** Content key of the `invalid` message; absent where the generic message says more (a cpf's check digits). */
  errorKey?: string;
  /** Placeholder values of both texts. */
  values: Readonly<Record<string, RuleOptionValue>>;
}

export interface FormatSettings {
  mask: string | null;
  regexp: string | null;
  example: string | null;
}

/**
 * `checksMore`: the field has a rule beyond its shape (cpf and ssn check digits, the pt_br mobile
 * rule of a phone), so a bare mask hint is shown but the error keeps its own words.
 */
export function expectedFormatOf(settings: FormatSettings, checksMore = false): ExpectedFormat | null {
  if (settings.example !== null) {
    return { hintKey: 'hint.example', errorKey: 'expected.example', values: { example: settings.example } };
  }
  if (settings.mask !== null) {
    return checksMore
      ? { hintKey: 'hint.mask', values: { mask: settings.mask } }
      : { hintKey: 'hint.mask', errorKey: 'expected.mask', values: { mask: settings.mask } };
  }
  if (settings.regexp === null) return null;
  const digits = digitCountOf(settings.regexp);
  if (digits === null) return { errorKey: 'expected.siteFormat', values: {} };
  if (digits.min === digits.max) return { hintKey: 'hint.digits', errorKey: 'expected.digits', values: { count: digits.min } };
  return { hintKey: 'hint.digitRange', errorKey: 'expected.digitRange', values: { min: digits.min, max: digits.max } };
}

/** One digit class: `\d`, `[0-9]`, `[1-9]`, `[23]`, `[3567]`, `[0-35-9]`. */
const DIGIT_ATOM = /^(?:\\d|\[(?:[0-9](?:-[0-9])?)+\])/;
const QUANTIFIER = /^(?:\{([0-9]+)(?:,([0-9]+))?\}|\?)/;

/**
 * The lengths a regexp of digits alone accepts (`^[1-9][0-9]{5,9}$` gives 6 to 10), or `null`
 * when it is anything else: a shape this small reader cannot describe is never guessed at.
 */
export function digitCountOf(regexp: string): { min: number; max: number } | null {
  if (!regexp.startsWith('^') || !regexp.endsWith('$')) return null;
  let rest = regexp.slice(1, -1);
  let min = 0;
  let max = 0;
  while (rest !== '') {
    const atom = DIGIT_ATOM.exec(rest);
    if (!atom) return null;
    rest = rest.slice(atom[0].length);
    const quantifier = QUANTIFIER.exec(rest);
    if (!quantifier) {
      min += 1;
      max += 1;
      continue;
    }
    rest = rest.slice(quantifier[0].length);
    if (quantifier[0] === '?') {
      max += 1;
      continue;
    }
    const low = Number(quantifier[1]);
    const high = quantifier[2] === undefined ? low : Number(quantifier[2]);
    if (high < low) return null;
    min += low;
    max += high;
  }
  return max > 0 ? { min, max } : null;
}

/**
 * The card's security code (schemas/validators/cvv.ts), "3 digits": the hint under the field and the words of its
 * `invalid` error (`hint.digits`, `expected.digits`). Here rather than beside the rule, which the form translator
 * reaches through the rule table: the rule stays below the forms that describe it.
 */
export const CVV_EXPECTED_FORMAT: ExpectedFormat = expectedFormatOf({ mask: null, regexp: CVV_PATTERN, example: null }) ?? { values: {} };
