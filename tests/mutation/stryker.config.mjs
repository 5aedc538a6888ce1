/**
 * `npm run mutants`: Stryker's mutation run over the rules whose mistakes would hurt most (validators, form
 * checks, card rules, route access, password sign-in, one-time codes), outside `npm test` and `.ci/run`.
 * `npm run mutants -- --mutate <file>` runs one file (README "Mutation run"). Reports (HTML, JSON) and
 * Stryker's sandboxes go under reports/ (git-ignored).
 */

/**
 * The test files that hold each file's rules. Each mutant runs only these (and of them only the tests that ran
 * its code): the whole of tests/schemas/validators takes 45 s a run, its fast-check properties most of it.
 */
const VALIDATOR_TESTS = ['tests/schemas/validators/golden.test.ts', 'tests/schemas/validators/generic.test.ts'];
const RULE_TESTS = {
  'schemas/validators/captcha.ts': ['tests/schemas/validators/url.test.ts', ...VALIDATOR_TESTS],
  'schemas/validators/card-number.ts': ['tests/schemas/validators/card-number.test.ts', ...VALIDATOR_TESTS],
  'schemas/validators/characters.ts': ['tests/schemas/validators/characters.test.ts', ...VALIDATOR_TESTS],
  'schemas/validators/dob.ts': ['tests/schemas/validators/dob.test.ts', ...VALIDATOR_TESTS],
  'schemas/validators/national-id.ts': ['tests/schemas/validators/national-id.test.ts', ...VALIDATOR_TESTS],
  'schemas/validators/password.ts': ['tests/schemas/validators/password.test.ts', ...VALIDATOR_TESTS],
  'schemas/validators/url.ts': ['tests/schemas/validators/url.test.ts', ...VALIDATOR_TESTS],
  // The edges of the smaller rules (cvv, email, phone, site regexps, validateField's options …).
  'schemas/validators/*.ts': [...VALIDATOR_TESTS, 'tests/schemas/validators/rules.test.ts'],
  'schemas/forms/validate-form.ts': ['tests/schemas/forms/validate-form.test.ts'],
  // The snapshots hold every fixture site's forms as a reviewer approved them: the autocomplete tokens, widgets and labels.
  'schemas/forms/build-form-schema.ts': [
    'tests/schemas/forms/build-form-schema.test.ts',
    'tests/schemas/forms/build-form-schema.snapshot.test.ts',
    'tests/schemas/forms/validate-form.test.ts',
  ],
  'schemas/cards/card-rules.ts': ['tests/schemas/cards/card-rules.test.ts'],
  'gateway/http/route-access.ts': ['tests/gateway/security/route-access.test.ts', 'tests/gateway/security/route-access-hook.test.ts'],
  'gateway/auth/password-sign-in.ts': [
    'tests/gateway/auth/sign-in-password.test.ts',
    'tests/gateway/auth/sign-in-passcodes.test.ts',
    'tests/gateway/auth/sign-in-steps.test.ts',
    'tests/gateway/auth/totp-mfa.test.ts',
    'tests/gateway/auth/backup-codes.test.ts',
    'tests/gateway/account/passwords.test.ts',
    'tests/gateway/security/site-bound-sign-in.test.ts',
    // The trusted devices' rows: the device a trust names, one row per browser.
    'tests/gateway/auth/holder-sessions.test.ts',
  ],
  'gateway/auth/one-time-codes.ts': ['tests/gateway/auth/sign-in-passcodes.test.ts', 'tests/gateway/auth/one-time-codes.test.ts'],
};

/** The files of `--mutate a,b` (or `-m`), else every file above. */
function mutatedFiles(argv) {
  const at = argv.findIndex((arg) => arg === '--mutate' || arg === '-m');
  if (at === -1 || at + 1 >= argv.length) return Object.keys(RULE_TESTS);
  return argv[at + 1].split(',').map((file) => file.replace(/:.*$/, ''));
}

/** A named file takes its own tests; a file without an entry of its own takes the entry of its folder's glob. */
function testsOf(file) {
  return RULE_TESTS[file] ?? RULE_TESTS[file.replace(/[^/]*$/, '*.ts')] ?? [];
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  testFiles: [...new Set(mutatedFiles(process.argv).flatMap(testsOf))],
  mutate: Object.keys(RULE_TESTS)
    .filter((file) => file !== 'schemas/validators/*.ts')
    .concat('schemas/validators/*.ts'),
  // Each mutant runs only the tests that ran its code in the dry run.
  coverageAnalysis: 'perTest',
  // Mutants of module-level code (the product-type and status tables, regexp constants) are not switched on under
  // this Vitest runner: emptying card-rules.ts's status table survived the tests that read it. They are reported
  // as ignored rather than counted as survivors no test could kill.
  ignoreStatic: true,
  // Two test runners on the machine's two cores.
  concurrency: 2,
  // password-sign-in.ts's seven gateway test files took over Stryker's default 5 minutes for the first (dry) run.
  dryRunTimeoutMinutes: 20,
  thresholds: { high: 95, low: 90, break: 95 },
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: 'reports/stryker-tmp',
};
