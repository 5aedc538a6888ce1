import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyMask, parseMask, unmask, type MaskSlotKind } from '../../../schemas/site-config/mask';
import {
  checkRequired,
  compileSiteRegExp,
  CPF_MASK,
  DEFAULT_POSTAL_CODE_MASK,
  dobPartOrder,
  formatCardNumber,
  isCaptchaFlag,
  isCaptchaHostAttribute,
  isCaptchaLanguageCode,
  isExternalUrlShape,
  joinDobParts,
  maskCardNumber,
  passwordRuleResults,
  splitDobParts,
  SSN_MASK,
  validateAddressPart,
  validateBin,
  validateCardNumber,
  validateConfirmPassword,
  validateCpf,
  validateDob,
  validateEmail,
  validateField,
  validateMaxLength,
  validateName,
  validateNationalId,
  validatePassword,
  validatePhone,
  validatePostalCode,
  validateQueryParam,
  validateReturnUrl,
  validateSsn,
  validateText,
  type ErrorKey,
  type RuleName,
} from '../../../schemas/validators';
import { enrollmentOf, nationalIdOptionsOf, phoneOptionsOf, postalCodeOptionsOf, SITE_IDS } from './fixture-settings';
import { GOLDEN_TODAY, RETURN_URL_ORIGIN } from './golden-tables';

// Property-based tests of the SPEC §5 validators. At least 1000 runs each.
const RUNS = { numRuns: 1000 };

const ERROR_KEYS: readonly ErrorKey[] = [
  'required',
  'invalid',
  'error',
  'invalidCharacter',
  'mustMatch',
  'passwordRulesError',
  'IncompleteFieldError',
  'incompleteFormateError',
  'invalidAgeError',
  'maxAgeError',
];
const RULE_NAMES: readonly RuleName[] = [
  'text',
  'name',
  'addressPart',
  'email',
  'password',
  'confirmPassword',
  'bin',
  'phone',
  'nationalId',
  'postalCode',
  'dob',
  'cardNumber',
];

/** Any text: arbitrary UTF-16 (lone surrogates included), and shapes close to the real values. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.stringMatching(/^[0-9 ()+./-]{0,24}$/),
  fc.stringMatching(/^[0-9-]{0,12}$/),
  fc.stringMatching(/^[/%a-z0-9_:.\\@?#-]{0,40}$/),
);

function expectAnswer(answer: unknown): void {
  if (answer === null) return;
  expect(ERROR_KEYS).toContain((answer as { key: ErrorKey }).key);
}

const SITE_RULE_OPTIONS = SITE_IDS.flatMap((siteId) => [
  phoneOptionsOf(siteId, siteId === 'bancosol' ? 'pt_br' : 'en_us'),
  nationalIdOptionsOf(siteId),
  postalCodeOptionsOf(siteId),
]);

const TEXT_VALIDATORS: ReadonlyArray<readonly [string, (value: string) => unknown]> = [
  ['validateName', validateName],
  ['validateAddressPart', validateAddressPart],
  ['validateEmail', validateEmail],
  ['validatePassword', validatePassword],
  ['validateConfirmPassword', (value) => validateConfirmPassword(value, 'Passw0rd!')],
  ['validateBin', (value) => validateBin(value, 8)],
  ['validateCpf', validateCpf],
  ['validateSsn', validateSsn],
  ['validateDob', (value) => validateDob(value, { minAge: 18, today: GOLDEN_TODAY })],
  ['validateCardNumber', (value) => validateCardNumber(value)],
  ['validateCardNumber (standalone)', (value) => validateCardNumber(value, { standalone: true })],
  ['validateText', (value) => validateText(value, { regexp: '^[A-Z]+$' })],
  ['validateMaxLength', (value) => validateMaxLength(value)],
  ['validateQueryParam', validateQueryParam],
  ['validateReturnUrl', (value) => validateReturnUrl(value, { origin: RETURN_URL_ORIGIN })],
  ['checkRequired', (value) => checkRequired(value, true)],
];

describe('no validator throws, whatever the input (ADR 0005)', () => {
  it.each(TEXT_VALIDATORS)('%s answers null or a FieldError for any string', (_, validate) => {
    fc.assert(
      fc.property(anyText, (value) => expectAnswer(validate(value))),
      RUNS,
    );
  });

  it("validatePhone, validateNationalId and validatePostalCode answer for any string under every fixture's settings", () => {
    fc.assert(
      fc.property(fc.constantFrom(...SITE_RULE_OPTIONS), anyText, (options, value) => {
        expectAnswer(validatePhone(value, options));
        expectAnswer(validateNationalId(value, { type: options.nationalIdType, mask: options.mask, regexp: options.regexp }));
        expectAnswer(validatePostalCode(value, options));
      }),
      RUNS,
    );
  });

  it('the helpers and predicates never throw on any string', () => {
    fc.assert(
      fc.property(anyText, (value) => {
        passwordRuleResults(value);
        formatCardNumber(value);
        maskCardNumber(value);
        splitDobParts(value);
        dobPartOrder(value);
        compileSiteRegExp(value);
        isExternalUrlShape(value);
        isCaptchaLanguageCode(value);
        isCaptchaFlag(value);
        isCaptchaHostAttribute(value);
      }),
      RUNS,
    );
  });

  it('validateField answers invalid, required or the rule for any unknown value, rule, options and inputs', () => {
    const rule = fc.oneof(fc.constantFrom(...RULE_NAMES), fc.string(), fc.anything());
    const options = fc.oneof(fc.constantFrom(...SITE_RULE_OPTIONS), fc.anything(), fc.dictionary(fc.string(), fc.anything()));
    const inputs = fc.oneof(fc.constant({ today: GOLDEN_TODAY }), fc.anything());
    fc.assert(
      fc.property(fc.oneof(fc.anything(), anyText), rule, options, fc.boolean(), inputs, (value, name, ruleOptions, required, given) => {
        expectAnswer(validateField(value, { rule: name as RuleName, options: ruleOptions as never, required }, given as never));
      }),
      RUNS,
    );
  });

  it('the URL checks answer for any unknown value', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (value, origin) => {
        expectAnswer(validateQueryParam(value));
        expectAnswer(validateReturnUrl(value, { origin: origin as string }));
        expect(typeof isExternalUrlShape(value)).toBe('boolean');
        checkRequired(value, true);
      }),
      RUNS,
    );
  });
});

describe('formatting then unformatting gives the digits back', () => {
  it('card numbers: formatCardNumber keeps the digits, in groups of four', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{0,16}$/), (digits) => {
        const formatted = formatCardNumber(digits);
        expect(formatted.replace(/ /g, '')).toBe(digits);
        expect(formatted).toMatch(/^(?:[0-9]{4}(?: [0-9]{4})*(?: [0-9]{1,3})?|[0-9]{0,3})$/);
        expect(formatCardNumber(formatted)).toBe(formatted);
      }),
      RUNS,
    );
  });

  const SLOT_CHARACTERS: Readonly<Record<MaskSlotKind, string>> = {
    digit: '0123456789',
    letter: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
    alphanumeric: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  };
  /** Values that fill every slot of `mask`, one character per slot. */
  function fillingValues(mask: string): fc.Arbitrary<string> {
    const parsed = parseMask(mask);
    if (!parsed.ok) throw new Error(`the fixture mask ${mask} does not parse`);
    const slots = parsed.tokens.flatMap((token) => (token.kind === 'literal' ? [] : [fc.constantFrom(...SLOT_CHARACTERS[token.kind])]));
    return fc.tuple(...slots).map((characters) => characters.join(''));
  }

  const MASKS = [
    ...new Set([
      CPF_MASK,
      SSN_MASK,
      DEFAULT_POSTAL_CODE_MASK,
      ...SITE_IDS.flatMap((siteId) => {
        const settings = enrollmentOf(siteId);
        return [settings.phone_mask, settings.national_id_mask, settings.postal_code_mask].filter((mask) => mask !== undefined);
      }),
    ]),
  ];

  it.each(MASKS)('mask %j: unmask(applyMask(raw)) is raw', (mask) => {
    fc.assert(
      fc.property(fillingValues(mask), (raw) => {
        expect(unmask(mask, applyMask(mask, raw))).toBe(raw);
      }),
      RUNS,
    );
  });

  it.each(MASKS.filter((mask) => mask !== CPF_MASK && mask !== SSN_MASK))(
    'mask %j: a filled value is complete, formatted or bare, for postal codes and national ids',
    (mask) => {
      fc.assert(
        fc.property(fillingValues(mask), (raw) => {
          for (const value of [raw, applyMask(mask, raw)]) {
            expect(validatePostalCode(value, { mask })).toBeNull();
            expect(validateNationalId(value, { type: 'other', mask })).toBeNull();
          }
          expect(validatePostalCode(raw.slice(1), { mask })).toEqual({ key: 'invalid' });
        }),
        RUNS,
      );
    },
  );

  const PHONE_MASKS = SITE_IDS.map((siteId) => enrollmentOf(siteId).phone_mask).filter((mask) => mask !== undefined);

  it.each([...new Set(PHONE_MASKS)])('mask %j: a formatted phone number of the right length is accepted without a site regexp', (mask) => {
    fc.assert(
      fc.property(fillingValues(mask), (digits) => {
        expect(validatePhone(applyMask(mask, digits), { mask })).toBeNull();
        expect(validatePhone(digits, { mask })).toBeNull();
        expect(validatePhone(applyMask(mask, digits.slice(1)), { mask })).toEqual({ key: 'invalid' });
      }),
      RUNS,
    );
  });
});

/** The Luhn check digit, computed here apart from the implementation under test. */
function luhnCheckDigit(payload: string): string {
  let sum = 0;
  [...payload].reverse().forEach((character, index) => {
    const digit = Number(character) * (index % 2 === 0 ? 2 : 1); // the check digit will sit to the right
    sum += digit > 9 ? digit - 9 : digit;
  });
  return String((10 - (sum % 10)) % 10);
}

describe('§5 card number and Luhn', () => {
  const cardNumbers = fc.stringMatching(/^4[0-9]{14}$/).map((payload) => payload + luhnCheckDigit(payload));

  it('accepts every Luhn-valid 16-digit number starting with 4, bare, grouped and standalone', () => {
    fc.assert(
      fc.property(cardNumbers, (number) => {
        expect(validateCardNumber(number)).toBeNull();
        expect(validateCardNumber(formatCardNumber(number))).toBeNull();
        expect(validateCardNumber(formatCardNumber(number), { standalone: true })).toBeNull();
      }),
      RUNS,
    );
  });

  it('rejects the number once any single digit changes', () => {
    fc.assert(
      fc.property(cardNumbers, fc.nat({ max: 15 }), fc.integer({ min: 1, max: 9 }), (number, position, shift) => {
        const changed = String((Number(number[position]) + shift) % 10);
        const mistyped = number.slice(0, position) + changed + number.slice(position + 1);
        expect(validateCardNumber(mistyped)).toEqual({ key: 'invalid' });
      }),
      RUNS,
    );
  });
});

describe('§5 password: the count is the number of failed rules', () => {
  // ASCII with spaces and tabs, where each rule has one obvious reading.
  const passwords = fc.string({ unit: fc.constantFrom(...' \tabcXYZ019!#_-'), maxLength: 14 });

  it('equals the rules an independent reading finds broken', () => {
    fc.assert(
      fc.property(passwords, (password) => {
        const broken = [
          password.length < 8,
          !/[0-9]/.test(password),
          !/[a-z]/.test(password),
          !/[A-Z]/.test(password),
          !/[!#_-]/.test(password),
          /[ \t]/.test(password),
        ].filter(Boolean).length;
        expect(passwordRuleResults(password).filter((result) => !result.passed)).toHaveLength(broken);
        expect(validatePassword(password)).toEqual(broken === 0 ? null : { key: 'passwordRulesError', values: { count: broken } });
      }),
      RUNS,
    );
  });
});

describe('§5 date of birth: dates by the calendar', () => {
  const today = GOLDEN_TODAY;
  const days = fc
    .date({ min: new Date(Date.UTC(1900, 0, 1)), max: new Date(Date.UTC(2030, 11, 31)), noInvalidDate: true })
    .map((date) => ({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() }));
  const pad = (number: number, width: number) => String(number).padStart(width, '0');

  it('accepts a real date at least 18 years back, refuses a later one as too young and a future one as unreadable', () => {
    const dayNumber = (year: number, month: number, day: number) => year * 10_000 + month * 100 + day;
    const todayNumber = dayNumber(today.year, today.month, today.day);
    fc.assert(
      fc.property(days, ({ year, month, day }) => {
        const value = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
        const answer = validateDob(value, { minAge: 18, today });
        if (dayNumber(year, month, day) > todayNumber) expect(answer, value).toEqual({ key: 'incompleteFormateError' });
        else if (dayNumber(year + 18, month, day) > todayNumber) {
          expect(answer, value).toEqual({ key: 'invalidAgeError', values: { count: 18 } });
        } else expect(answer, value).toBeNull();
      }),
      RUNS,
    );
  });

  it('splitting joined parts gives the parts back', () => {
    const part = (width: number) => fc.stringMatching(new RegExp(`^[0-9]{0,${width}}$`));
    fc.assert(
      fc.property(part(4), part(2), part(2), (yyyy, mm, dd) => {
        expect(splitDobParts(joinDobParts({ yyyy, mm, dd }))).toEqual({ yyyy, mm, dd });
      }),
      RUNS,
    );
  });
});
