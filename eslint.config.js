import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { noImportCycle } from './tests/lint/no-import-cycle.js';

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** React's packages, kept out of the folders the README's architecture table keeps React out of. */
const REACT_PACKAGES = '^(react|react-dom)(/|$)';
const NODE_BUILTINS = `^(node:|(${builtinModules.map(escapeRegExp).join('|')})(/|$))`;

/**
 * README "Architecture": what each folder may import of ours (a folder's own files always) and the packages it may not.
 * An entry ending in `/` is a folder, any other a single file.
 */
const BOUNDARIES = {
  schemas: {
    mayImport: [],
    forbiddenPackages: [
      { regex: REACT_PACKAGES, message: 'schemas/ is pure TypeScript: no React (README "Architecture").' },
      { regex: NODE_BUILTINS, message: 'schemas/ is pure TypeScript: no Node built-ins, no I/O (README "Architecture").' },
    ],
  },
  widgets: { mayImport: ['schemas/', 'fixtures/content/en_us.json'], forbiddenPackages: [] },
  // fixtures/default-site.json is the bundled answer when not even the gateway's default site can be fetched (SPEC §7, ADR 0016).
  src: {
    mayImport: ['schemas/', 'widgets/', 'fixtures/content/en_us.json', 'fixtures/analytics/tags.json', 'fixtures/default-site.json'],
    forbiddenPackages: [],
  },
  gateway: {
    mayImport: ['schemas/'],
    forbiddenPackages: [{ regex: REACT_PACKAGES, message: 'gateway/ serves the built app and never imports React (README "Architecture").' }],
  },
};

/** Folders nest no deeper than this below the repository root (the tree's deepest source file today is at 3). */
const DEEPEST_FOLDER = 8;

/**
 * no-restricted-imports sees an import's text, not the file it resolves to, so a relative import leaves its folder
 * when it climbs as many `../` as its file lies below the root: one block per depth, whose regexp refuses such an
 * import unless it lands on what the folder may import.
 */
function boundaryBlocks(folder, { mayImport, forbiddenPackages }) {
  const allowed = mayImport.map((target) => (target.endsWith('/') ? escapeRegExp(target) : `${escapeRegExp(target)}$`));
  const listed = mayImport.length === 0 ? 'nothing of ours' : mayImport.join(', ');
  return Array.from({ length: DEEPEST_FOLDER }, (_, index) => {
    const depth = index + 1;
    const leavesFolder = `^(\\./)?(\\.\\./){${depth}}${allowed.length === 0 ? '' : `(?!${allowed.join('|')})`}`;
    return {
      name: `boundaries/${folder}/depth-${depth}`,
      files: [`${folder}/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              { regex: leavesFolder, message: `${folder}/ may import ${listed} (README "Architecture").` },
              ...forbiddenPackages.map(({ regex, message }) => ({ regex, message })),
            ],
          },
        ],
      },
    };
  });
}

export default defineConfig(
  globalIgnores(['dist/', 'build/', 'test-output/', 'coverage/', 'data/', 'reports/']),
  {
    name: 'javascript',
    files: ['**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
  {
    name: 'typescript',
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: globals.node,
    },
    rules: {
      // Numbers in messages and URLs read as themselves; other non-strings still need an explicit String().
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // The house's `onClick={() => setOpen(false)}` callbacks: a void shorthand arrow says "do this" plainly.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // Off, 120 findings: Fastify plugins must be async to be awaited as plugins, and in-memory stand-ins implement Promise interfaces.
      '@typescript-eslint/require-await': 'off',
      // Off, 25 findings: spreading a string into its code points is the intent (lengths, masks and accents count characters, not UTF-16 units).
      '@typescript-eslint/no-misused-spread': 'off',
      // Off, 282 findings (276 in tests): noUncheckedIndexedAccess types in-bounds reads `| undefined`; `!` marks the ones a loop or an expectation bounds.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Off, 24 findings: 19 read RJSF's submitted fields (typed unknown) as text with String(data.field ?? ''), 5 a test double's fetch body.
      '@typescript-eslint/no-base-to-string': 'off',
      // Off, 9 findings: deleting a key from a record copy (stored attributes, environment variables, fixtures) is the intent.
      '@typescript-eslint/no-dynamic-delete': 'off',
      // React Router's loaders throw the Response of redirect().
      '@typescript-eslint/only-throw-error': ['error', { allow: [{ from: 'lib', name: 'Response' }] }],
      // `const { siteId: _siteId, ...body } = …`: naming what a rest copy leaves out is the house's way to omit a key.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    name: 'widgets',
    files: ['widgets/**/*.{ts,tsx}'],
    rules: {
      // Off in widgets/, 12 findings: RJSF types a widget's value and an error's params as any, and widgets hand them on.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    name: 'tests',
    files: ['tests/**/*.{ts,tsx}'],
    rules: {
      // Off in tests, 306 findings: tests read untyped JSON answers and mocks' arguments, and the assertions on them are the type check.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      // Off in tests, 75 findings: afterAll hooks close with `?.` what a failed beforeAll may never have opened, though typed as set.
      '@typescript-eslint/no-unnecessary-condition': 'off',
      // act() with a synchronous callback has done its work when it returns; its thenable is for async callbacks.
      '@typescript-eslint/no-floating-promises': ['error', { allowForKnownSafeCalls: [{ from: 'package', name: 'act', package: 'react' }] }],
    },
  },
  {
    name: 'browser',
    files: ['src/**/*.{ts,tsx}', 'widgets/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    languageOptions: { globals: globals.browser },
  },
  Object.entries(BOUNDARIES).flatMap(([folder, boundary]) => boundaryBlocks(folder, boundary)),
  {
    // README "Architecture": arrows point one way, so no import of ours closes a circle.
    name: 'import-cycles',
    files: ['**/*.{ts,tsx,js}'],
    plugins: { house: { rules: { 'no-import-cycle': noImportCycle } } },
    rules: { 'house/no-import-cycle': 'error' },
  },
);
