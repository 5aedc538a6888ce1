import RandExp from 'randexp';
import type { JsonSchema } from '../../../../schemas/forms/json-schema';
import { upperCaseLetters } from '../../../../schemas/forms/normalise-form-data';
import { applyMask, parseMask, unmask } from '../../../../schemas/site-config/mask';
import { validateField, type RuleName } from '../../../../schemas/validators';

/**
 * Test values made from a field's own rule (SPEC §5, the `x-rule` and its options as
 * `buildFormSchema` emits them): values drawn from the site's regexp (randexp) and from its mask
 * (`0` digit, `A` letter, `*` either, ADR 0001), each kept only when the field's own validator
 * accepts it. A site whose rules nobody has typed before (a new fixture) needs no test edit; a rule
 * no value can meet fails, naming the field and the rule. Seeded by the field and its rule, so a
 * run is repeatable.
 */

export interface FieldValue {
  /** What is typed: the slot characters alone for a masked field (the widget formats them). */
  typed: string;
  /** What the field shows afterwards: the site's mask applied, letters upper-cased where the site asks. */
  shown: string;
}

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
function draw(rule: RuleName, options: Readonly<Record<string, unknown>>, attempt: number, random: Random): string {
  if (rule === 'nationalId' && options.nationalIdType === 'cpf') return drawCpf(random);
  if (rule === 'nationalId' && options.nationalIdType === 'ssn') return drawSsn(random);
  const mask = readText(options.mask);
  const regexp = readText(options.regexp);
  if (regexp !== null && (mask === null || attempt % 2 === 0)) return drawForRegexp(regexp, random);
  if (mask !== null) return drawForMask(mask, random);
  return drawForMask(rule === 'phone' ? '0000000000' : '**********', random);
}

/**
 * A value the field's own validator accepts, as typed and as shown: the first of
 * `GENERATION_ATTEMPTS` drawn values that passes. Throws naming the field and its rule when none does.
 */
export function generatedFieldValue(key: string, schema: JsonSchema): FieldValue {
  const rule = schema['x-rule'];
  if (!rule) throw new Error(`field ${key} has no x-rule`);
  const options: Readonly<Record<string, unknown>> = rule.options ?? {};
  const mask = readText(options.mask);
  const uppercase = options.uppercase === true;
  const random = seededRandom(seedOf(`${key} ${rule.name} ${JSON.stringify(options)}`));
  for (let attempt = 0; attempt < GENERATION_ATTEMPTS; attempt += 1) {
    const drawn = draw(rule.name, options, attempt, random);
    // A masked widget takes the slot characters and writes the literals itself.
    const typed = mask ? unmask(mask, drawn) : drawn;
    const cased = uppercase ? upperCaseLetters(typed) : typed;
    const shown = mask ? applyMask(mask, cased) : cased;
    if (typed === '' || shown.length > (schema.maxLength ?? Number.MAX_SAFE_INTEGER)) continue;
    if (validateField(shown, { rule: rule.name, options: rule.options ?? {}, required: true }) === null) return { typed, shown };
  }
  throw new Error(
    `no valid test value for ${key}: none of ${GENERATION_ATTEMPTS} values drawn from its rule (${rule.name} ${JSON.stringify(options)}) passes its validator`,
  );
}
