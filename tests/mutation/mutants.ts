/**
 * Realistic mutants of the code whose mistakes would hurt most (validators, form checks, route guards,
 * gateway limits, one-time codes, cards and the site binding), each with the tests that must notice it.
 * `npm run mutants` (run-mutants.ts) applies one at a time and runs only its tests: a mutant whose tests
 * still pass is a rule no test holds. `find` must occur exactly once in `file`, so a list that drifts
 * from the code fails loudly instead of testing nothing.
 */
export interface Mutant {
  id: string;
  /** What the mutant breaks, in the product's words. */
  breaks: string;
  file: string;
  find: string;
  replace: string;
  /** The Vitest project and the test files (and, for long files, a test-name pattern) that must fail. */
  project: 'unit' | 'gateway';
  tests: string[];
  testNamePattern?: string;
}

export const MUTANTS: Mutant[] = [
  {
    id: 'validate-form-required-block',
    breaks: 'a registration without its Mandatory address block passes (SPEC §3 Address)',
    file: 'schemas/forms/validate-form.ts',
    find: 'if (value === undefined && !required) return null;',
    replace: 'if (value === undefined) return null;',
    project: 'unit',
    tests: ['tests/schemas/forms/validate-form.test.ts'],
  },
  {
    id: 'dob-november-31',
    breaks: '31 November is a date of birth (SPEC §5 date of birth)',
    file: 'schemas/validators/dob.ts',
    find: '[4, 6, 9, 11].includes(month)',
    replace: '[4, 6, 9].includes(month)',
    project: 'unit',
    tests: ['tests/schemas/validators/dob.test.ts'],
  },
  {
    id: 'phone-pt-br-leading-9',
    breaks: 'a Brazilian mobile number without the 9 after the area code passes (SPEC §5 phone)',
    file: 'schemas/validators/phone.ts',
    find: 'const BRAZIL_MOBILE_DIGITS = /^[1-9]{2}9[0-9]{8}$/;',
    replace: 'const BRAZIL_MOBILE_DIGITS = /^[1-9]{2}[0-9]{9}$/;',
    project: 'unit',
    tests: ['tests/schemas/validators/golden.test.ts'],
  },
  {
    id: 'luhn-no-cast-out-nines',
    breaks: 'the Luhn check adds doubled digits without casting out nines, so mistyped card numbers pass (ADR 0005)',
    file: 'schemas/validators/card-number.ts',
    find: 'sum += weighted > 9 ? weighted - 9 : weighted;',
    replace: 'sum += weighted;',
    project: 'unit',
    tests: ['tests/schemas/validators/card-number.test.ts'],
  },
  {
    id: 'mfa-guard-agent-exemption',
    breaks: 'an agent acting for a card holder is sent to set up an authenticator for them (ADR 0014)',
    file: 'src/routes/route-guards.ts',
    find: "mfaRequired: (c) => (c.userType !== 'CONCIERGE' && isMfaRequired(c.site)",
    replace: 'mfaRequired: (c) => (isMfaRequired(c.site)',
    project: 'unit',
    tests: ['tests/src/routes/route-guards.test.ts'],
  },
  {
    id: 'sign-in-limit-tenfold',
    breaks: 'one IP may make 300 sign-in calls in five minutes instead of 30 (ADR 0008 "Limits")',
    file: 'gateway/limits/sign-in-limits.ts',
    find: 'signInCallsPerIp: 30,',
    replace: 'signInCallsPerIp: 300,',
    project: 'gateway',
    tests: ['tests/gateway/auth/sign-in-password.test.ts'],
    testNamePattern: '429 RATE_LIMITED',
  },
  {
    id: 'code-check-limit-tenfold',
    breaks: 'one IP may check 600 passcodes in five minutes instead of 60 (ADR 0008 "Limits")',
    file: 'gateway/limits/sign-in-limits.ts',
    find: 'codeChecksPerIp: 60,',
    replace: 'codeChecksPerIp: 600,',
    project: 'gateway',
    tests: ['tests/gateway/auth/sign-in-passcodes.test.ts'],
    testNamePattern: 'code checks per IP',
  },
  {
    id: 'code-attempts-tenfold',
    breaks: 'a one-time passcode may be guessed 50 times instead of 5 (ADR 0008)',
    file: 'gateway/auth/one-time-codes.ts',
    find: 'export const MAX_CODE_ATTEMPTS = 5;',
    replace: 'export const MAX_CODE_ATTEMPTS = 50;',
    project: 'gateway',
    tests: ['tests/gateway/auth/sign-in-passcodes.test.ts'],
    testNamePattern: 'OTP_INVALID',
  },
  {
    id: 'card-named-twice',
    breaks: 'a card named twice in one enrolment is not caught by the enrolment check (ADR 0011)',
    file: 'gateway/cards/card-enrolment.ts',
    find: 'seen.add(card.fingerprint);',
    replace: '',
    project: 'gateway',
    tests: ['tests/gateway/cards/cards-api.test.ts'],
    testNamePattern: 'CARD_DUPLICATE',
  },
  {
    id: 'session-site-binding',
    breaks: 'a session of one site reads and writes another site\'s data (ADR 0017 "Sessions are bound to one site")',
    file: 'gateway/http/route-access.ts',
    find: "if (named !== user.siteId) throw new HttpError(403, 'SITE_MISMATCH'",
    replace: "if (named === '\\u0000') throw new HttpError(403, 'SITE_MISMATCH'",
    project: 'gateway',
    tests: ['tests/gateway/security/route-access.test.ts'],
    testNamePattern: 'SITE_MISMATCH',
  },
];
