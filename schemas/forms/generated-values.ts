import RandExp from 'randexp';
import { applyMask, maskSlotCount, parseMask, unmask } from '../site-config/mask';
import { compileSiteRegExp, DEFAULT_BIN_LENGTH, meetsSiteRegExp, validateField, type FieldError, type RuleName } from '../validators';
import type { JsonSchema, RuleOptionValue } from './json-schema';
import { upperCaseLetters } from './normalise-form-data';

/**
 * Values made from a field's own rule (SPEC §5, the `x-rule` and its options as `buildFormSchema`
 * emits them): values drawn from the site's regexp (randexp) and from its mask (`0` digit, `A`
 * letter, `*` either, ADR 0001), each kept only when the field's own validator accepts it both as
 * the masked widget stores it (the bare slot characters) and as the field shows it. `sites:check`
 * simulates every site with them and the journey matrix types them into real forms, so a site whose
 * rules nobody has typed before needs no test edit, and a rule no value can meet is found before a
 * card holder meets it. Seeded by the field and its rule, so a run is repeatable. Runs in Node only
 * (the CLI and the tests): randexp is a development dependency and no app or gateway module imports this.
 */

export interface FieldValue {
  /** What is typed: the slot characters alone for a masked field (the widget formats them). */
  typed: string;
  /** What the field shows afterwards: the site's mask applied, letters upper-cased where the site asks. */
  shown: string;
  /** What the widget stores and the browser sends: the typed slot characters, upper-cased where the site asks. */
  stored: string;
}

/** A value the field refused, where it was drawn from, and why (for the author: `sites:check`). */
export interface RefusedValue {
  value: string;
  drawnFrom: 'regexp' | 'mask' | 'rule';
  why: string;
}

export type GeneratedValue = { ok: true; value: FieldValue } | { ok: false; refused: RefusedValue[] };

/** How many drawn values a field may try before it is declared impossible: enough for a 1-in-20 rule (a pt_br mobile under a bare mask). */
export const GENERATION_ATTEMPTS = 300;
/** Repeats (`*`, `+`, `{n,}`) in a site regexp draw at most this many more: values stay short enough for every field's maxLength. */
const OPEN_REPEAT_EXTRA = 6;

/** mulberry32: a small seeded generator, so the same rule always yields the same values. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** FNV-1a of the text: the seed of a field's values. */
function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

type Random = () => number;
const pick = (random: Random, characters: string): string => characters[Math.floor(random() * characters.length)]!;
const DIGITS = '0123456789';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Slot characters for every slot of the mask, each of the kind the slot takes. */
function drawForMask(mask: string, random: Random): string {
  const parsed = parseMask(mask);
  if (!parsed.ok) throw new Error(`unreadable mask ${JSON.stringify(mask)} at ${parsed.position}`);
  return parsed.tokens
    .map((token) => {
      if (token.kind === 'digit') return pick(random, DIGITS);
      if (token.kind === 'letter') return pick(random, LETTERS);
      if (token.kind === 'alphanumeric') return pick(random, DIGITS + LETTERS);
      return '';
    })
    .join('');
}

/** A string the site's regexp matches, drawn with the field's seeded generator. */
function drawForRegexp(regexp: string, random: Random): string {
  const generator = new RandExp(regexp);
  generator.max = OPEN_REPEAT_EXTRA;
  generator.randInt = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  return generator.gen();
}

/** Modulo-11 check digit of a CPF body (SPEC §5 cpf), weights counting down from `body.length + 1`. */
function cpfCheckDigit(body: string): string {
  let sum = 0;
  for (let index = 0; index < body.length; index += 1) sum += Number(body[index]) * (body.length + 1 - index);
  const remainder = sum % 11;
  return String(remainder < 2 ? 0 : 11 - remainder);
}

/** Nine random digits and the two check digits a CPF must end with: no generator can guess them. */
function drawCpf(random: Random): string {
  let body = '';
  for (let index = 0; index < 9; index += 1) body += pick(random, DIGITS);
  const first = cpfCheckDigit(body);
  return `${body}${first}${cpfCheckDigit(`${body}${first}`)}`;
}

/** An SSN with an area of 001–665 or 667–899, a group 01–99 and a serial 0001–9999 (SPEC §5 ssn). */
function drawSsn(random: Random): string {
  let area = 1 + Math.floor(random() * 898);
  if (area === 666) area = 667;
  const group = 1 + Math.floor(random() * 99);
  const serial = 1 + Math.floor(random() * 9999);
  return `${String(area).padStart(3, '0')}${String(group).padStart(2, '0')}${String(serial).padStart(4, '0')}`;
}

const readText = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * What one draw gives for the field, before its validator judges it: a CPF or SSN built with its
 * check rules; otherwise alternately a value of the site's regexp and one of its mask, or, with
 * neither, digits (a phone, SPEC §5 generic international pattern) or letters and digits.
 */
function draw(rule: RuleName, options: Readonly<Record<string, unknown>>, attempt: number, random: Random): { drawn: string; from: RefusedValue['drawnFrom'] } {
  if (rule === 'nationalId' && options.nationalIdType === 'cpf') return { drawn: drawCpf(random), from: 'rule' };
  if (rule === 'nationalId' && options.nationalIdType === 'ssn') return { drawn: drawSsn(random), from: 'rule' };
  // SPEC §5 bin: the widget's mask is one digit slot per digit of `binLength`.
  if (rule === 'bin') return { drawn: drawForMask('0'.repeat(binLengthOption(options)), random), from: 'mask' };
  const mask = readText(options.mask);
  const regexp = readText(options.regexp);
  if (regexp !== null && (mask === null || attempt % 2 === 0)) return { drawn: drawForRegexp(regexp, random), from: 'regexp' };
  if (mask !== null) return { drawn: drawForMask(mask, random), from: 'mask' };
  return { drawn: drawForMask(rule === 'phone' ? '0000000000' : '**********', random), from: 'rule' };
}

const binLengthOption = (options: Readonly<Record<string, unknown>>): number =>
  typeof options.binLength === 'number' ? options.binLength : DEFAULT_BIN_LENGTH;

/** The rules whose values are drawn here: the masked and regexp-checked fields of SPEC §5. */
export const GENERATED_RULES: ReadonlySet<RuleName> = new Set<RuleName>(['phone', 'nationalId', 'postalCode', 'bin']);

/**
 * Why the field's validator refused `value`, in the author's terms: the mask it does not fill, the
 * regexp it meets in neither form (ADR 0005 "Masks and regexps"), or the SPEC §5 rule beyond both.
 */
export function whyRefused(rule: RuleName, options: Readonly<Record<string, RuleOptionValue>>, value: string, error: FieldError): string {
  const mask = readText(options.mask) ?? (rule === 'bin' ? '0'.repeat(binLengthOption(options)) : null);
  if (mask !== null && unmask(mask, value).length !== maskSlotCount(mask)) {
    return `it does not fill the ${maskSlotCount(mask)} slots of the mask ${JSON.stringify(mask)}`;
  }
  const source = readText(options.regexp);
  const regexp = compileSiteRegExp(source);
  if (source !== null && regexp !== null && !meetsSiteRegExp(regexp, value, mask ?? undefined)) {
    if (mask === null) return `the regexp ${source} does not match it`;
    const bare = unmask(mask, value);
    return `the regexp ${source} matches it neither as shown (${JSON.stringify(applyMask(mask, bare))}) nor bare (${JSON.stringify(bare)})`;
  }
  if (rule === 'bin') return `a bin is ${binLengthOption(options)} digits starting with 4 (SPEC §5)`;
  if (rule === 'nationalId' && (options.nationalIdType === 'cpf' || options.nationalIdType === 'ssn'))
    return `it is not a valid ${options.nationalIdType} (SPEC §5)`;
  if (rule === 'phone' && options.locale === 'pt_br') return 'a pt_br phone is a mobile: two-digit area code, then 9, then eight digits (SPEC §5)';
  if (rule === 'phone' && source === null) return 'a phone without a regexp has 7 to 15 digits (SPEC §5)';
  return `the ${rule} rule answers ${error.key}`;
}

/**
 * A value the field's own validator accepts as the widget stores it and as the field shows it: the
 * first of `GENERATION_ATTEMPTS` drawn values that passes both. When none does, the last value
 * refused from each source (regexp, mask, rule) and why, for the author.
 */
export function generateFieldValue(schema: JsonSchema, seedKey: string): GeneratedValue {
  const rule = schema['x-rule'];
  if (!rule) return { ok: false, refused: [] };
  const options = rule.options ?? {};
  const mask = readText(options.mask);
  const uppercase = options.uppercase === true;
  const random = seededRandom(seedOf(`${seedKey} ${rule.name} ${JSON.stringify(options)}`));
  const lastRefused = new Map<RefusedValue['drawnFrom'], RefusedValue>();
  for (let attempt = 0; attempt < GENERATION_ATTEMPTS; attempt += 1) {
    const { drawn, from } = draw(rule.name, options, attempt, random);
    // A masked widget takes the slot characters and writes the literals itself.
    const typed = mask ? unmask(mask, drawn) : drawn;
    const stored = uppercase ? upperCaseLetters(typed) : typed;
    const shown = mask ? applyMask(mask, stored) : stored;
    const maxLength = schema.maxLength ?? Number.MAX_SAFE_INTEGER;
    if (typed === '' && mask !== null) {
      lastRefused.set(from, { value: drawn, drawnFrom: from, why: `none of its characters fits a slot of the mask ${JSON.stringify(mask)}` });
      continue;
    }
    if (shown.length > maxLength) {
      lastRefused.set(from, { value: drawn, drawnFrom: from, why: `it is longer than the field's ${maxLength} characters` });
      continue;
    }
    const error = [stored, shown].map((value) => validateField(value, { rule: rule.name, options, required: true })).find((answer) => answer !== null);
    if (error === undefined) return { ok: true, value: { typed, shown, stored } };
    lastRefused.set(from, { value: drawn, drawnFrom: from, why: whyRefused(rule.name, options, shown, error) });
  }
  return { ok: false, refused: [...lastRefused.values()] };
}

/** `generateFieldValue` for the tests that need a value: throws naming the field and its rule when none passes. */
export function generatedFieldValue(key: string, schema: JsonSchema): FieldValue {
  const generated = generateFieldValue(schema, key);
  if (generated.ok) return generated.value;
  const rule = schema['x-rule'];
  if (!rule) throw new Error(`field ${key} has no x-rule`);
  throw new Error(
    `no valid test value for ${key}: none of ${GENERATION_ATTEMPTS} values drawn from its rule (${rule.name} ${JSON.stringify(rule.options ?? {})}) passes its validator`,
  );
}
