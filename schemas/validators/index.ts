/**
 * The validators of SPEC §5: one pure implementation for the browser's forms and the gateway's
 * payload checks. The schema translator stores `{ rule, options }` on a field; both sides
 * dispatch through `FIELD_RULES` (usually via `validateField`), so they can never disagree.
 */
import { validateBin } from './bin';
import { validateCardNumber } from './card-number';
import { validateCharacters } from './characters';
import { isDobEmpty, validateDob, type CalendarDay } from './dob';
import { validateEmail } from './email';
import { fieldError, type FieldError } from './field-error';
import { checkRequired, isEmptyValue, validateMaxLength, validateText } from './generic';
import { validateAddressPart, validateName } from './names';
import { validateNationalId } from './national-id';
import { validateConfirmPassword, validatePassword } from './password';
import { validatePhone } from './phone';
import { validatePostalCode } from './postal-code';

export * from './bin';
export * from './captcha';
export * from './card-number';
export * from './characters';
export * from './cvv';
export * from './dob';
export * from './email';
export * from './field-error';
export * from './generic';
export * from './names';
export * from './national-id';
export * from './password';
export * from './phone';
export * from './postal-code';
export * from './site-regexp';
export * from './url';

export type RuleName =
  'text' | 'name' | 'addressPart' | 'email' | 'password' | 'confirmPassword' | 'bin' | 'phone' | 'nationalId' | 'postalCode' | 'dob' | 'cardNumber';

/** The site settings a rule reads, as the translator stores them in the schema: JSON values only. */
export interface SchemaRuleOptions {
  /** Max characters: generic inputs (default 100); for `cardNumber`, `pan_capture.maxLength` (default 19). */
  maxLength?: number;
  /** `phone_mask`, `national_id_mask` or `postal_code_mask`. */
  mask?: string;
  /** `phone_regexp`, `national_id_regexp`, `postal_code_regexp`, or a `text` field's pattern. */
  regexp?: string;
  /** The page locale (xx_yy); `phone` applies the pt_br mobile rule. */
  locale?: string;
  /** `bin_length` (default 9). */
  binLength?: number;
  /** `national_id_type`: cpf, ssn or other. */
  nationalIdType?: string;
  /** `date_format`: only the order the widget shows the parts in (`dobPartOrder`); values are YYYY-MM-DD. */
  dateFormat?: string;
  /** `dob_min_age` (default 16). */
  minAge?: number;
  /** `cardNumber` in the standalone card form: single spaces between the groups. */
  standalone?: boolean;
  /** `confirmPassword`: the field whose value it must equal. */
  matchField?: string;
}

/** What the caller supplies when it validates; never stored in a schema. */
export interface ValidationInputs {
  /** `dob`: the day ages are computed on. */
  today?: CalendarDay | Date;
  /** `confirmPassword`: the current value of `matchField`. */
  matchValue?: string;
}

export type RuleOptions = SchemaRuleOptions & ValidationInputs;

/** Gets a non-empty value (the required rule is the caller's: `checkRequired`). */
export type FieldRuleValidator = (value: string, options: RuleOptions) => FieldError | null;

export const FIELD_RULES: Readonly<Record<RuleName, FieldRuleValidator>> = {
  text: (value, options) => validateText(value, options),
  name: (value, options) => validateMaxLength(value, options.maxLength) ?? validateName(value),
  addressPart: (value, options) => validateMaxLength(value, options.maxLength) ?? validateAddressPart(value),
  // Email has its own length rule (254), answered with its own key.
  email: (value) => validateEmail(value),
  password: (value, options) => validateMaxLength(value, options.maxLength) ?? validatePassword(value),
  // A missing `matchValue` equals no confirmation, so a confirmation is never accepted blind.
  confirmPassword: (value, options) => validateConfirmPassword(value, options.matchValue),
  bin: (value, options) => validateBin(value, options.binLength),
  phone: (value, options) => validateMaxLength(value, options.maxLength) ?? validatePhone(value, options),
  nationalId: (value, options) =>
    validateMaxLength(value, options.maxLength) ?? validateNationalId(value, { type: options.nationalIdType, mask: options.mask, regexp: options.regexp }),
  postalCode: (value, options) => validateMaxLength(value, options.maxLength) ?? validatePostalCode(value, options),
  dob: (value, options) => validateDob(value, { minAge: options.minAge, today: options.today }),
  cardNumber: (value, options) => validateCardNumber(value, { standalone: options.standalone, maxInputLength: options.maxLength }),
};

export function isRuleName(name: unknown): name is RuleName {
  return typeof name === 'string' && Object.hasOwn(FIELD_RULES, name);
}

const readString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
/** Whole numbers; the digit strings a site setting holds ("9") are read as numbers too. */
const readCount = (value: unknown): number | undefined => {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  return typeof value === 'string' && /^[0-9]{1,6}$/.test(value) ? Number(value) : undefined;
};
/** A flag is on for `true` or "true" (a site setting's text); anything else leaves it off, its default. */
const readFlag = (value: unknown): boolean => value === true || value === 'true';

/**
 * The options as a rule may trust them: a schema and the caller's inputs are data from outside
 * the type system, so every option of the wrong type is dropped (and its default applies).
 */
function readRuleOptions(options: unknown, inputs: unknown): RuleOptions {
  const stored = (typeof options === 'object' && options !== null ? options : {}) as Record<string, unknown>;
  const given = (typeof inputs === 'object' && inputs !== null ? inputs : {}) as Record<string, unknown>;
  return {
    maxLength: readCount(stored.maxLength),
    mask: readString(stored.mask),
    regexp: readString(stored.regexp),
    locale: readString(stored.locale),
    binLength: readCount(stored.binLength),
    nationalIdType: readString(stored.nationalIdType),
    dateFormat: readString(stored.dateFormat),
    minAge: readCount(stored.minAge),
    standalone: readFlag(stored.standalone),
    matchField: readString(stored.matchField),
    // A Date or a calendar day; `validateDob` reads it as unknown and refuses one it cannot read (not an object, null, a bad date).
    today: given.today as CalendarDay | Date | undefined,
    matchValue: readString(given.matchValue),
  };
}

/** A field as the schema describes it: its rule, the rule's options, and whether it is required. */
export interface FieldValidation {
  rule: RuleName;
  options?: SchemaRuleOptions;
  required?: boolean;
}

/**
 * The one entry point for a field's value, whatever it is: a value that is not text is `invalid`;
 * one holding a control or hidden character is `invalidCharacter` (ADR 0005 "Characters"); an
 * empty one gets the required rule (SPEC §5); anything else goes to the field's rule. An unknown
 * rule is `invalid` too, so a broken schema refuses rather than accepts. Never throws.
 */
export function validateField(value: unknown, field: FieldValidation, inputs: ValidationInputs = {}): FieldError | null {
  // Stryker disable ConditionalExpression: a text or number has no `rule` isRuleName accepts, so only a function with one (never in JSON) tells the mutant apart
  // (a block, not next-line: ESLint's next-line comment must stand directly above the code too)
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- a field's rules come from a schema's JSON at run time; a broken one is refused, never thrown on
  if (typeof field !== 'object' || field === null || !isRuleName(field.rule)) return fieldError('invalid');
  // Stryker restore ConditionalExpression
  if (value !== undefined && value !== null && typeof value !== 'string') return fieldError('invalid');
  const text = value ?? '';
  const characters = validateCharacters(text);
  if (characters) return characters;
  // A date of birth with no part filled is stored as "" but "--" means the same (SPEC §5 "All empty").
  if (isEmptyValue(text) || (field.rule === 'dob' && isDobEmpty(text))) return checkRequired('', field.required === true);
  return FIELD_RULES[field.rule](text, readRuleOptions(field.options, inputs));
}
