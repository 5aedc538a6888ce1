/**
 * `npm run sites:check [files…]`: the configuration author's lint (docs/decisions/0001-site-fixture-format.md).
 * Without arguments it checks every `fixtures/sites/*.json` and `fixtures/default-site.json` (and the
 * data fixtures below, such as the demo cashback statements of `fixtures/cashback/*.json` and the
 * texts of `fixtures/content/*.json`); with
 * arguments, those files (relative to the current directory). One line per mistake, a summary, and
 * exit code 1 when anything is wrong, so CI and `npm test` stop on a broken fixture. A site file
 * without mistakes is then simulated (schemas/site-config/site-simulation.ts, ADR 0001 "Simulation"):
 * its forms are filled in every locale it is for, through the validators the browser and gateway run.
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkBinRanges } from '../../schemas/cards/bin-ranges';
import { checkFixtureText, checkSettingsWithoutEffect, checkSiteFixtureWarnings, type FixtureMistake } from '../../schemas/site-config/fixture-check';
import { checkCashbackStatement, checkContent } from '../fixtures/check-data-fixtures';
import { siteFixtureSchemaText, SITE_FIXTURE_SCHEMA_FILE } from '../../schemas/site-config/fixture-format';
import { simulateSite, type SimulationInputs } from '../../schemas/site-config/site-simulation';
import type { SiteConfig } from '../../schemas/site-config/types';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The app's static files: Vite copies them to the root of the build, where a site's logo is served from (ADR 0020). */
const PUBLIC_DIR = resolve(REPO_ROOT, 'public');

function isPublicFile(path: string): boolean {
  try {
    return statSync(resolve(PUBLIC_DIR, path)).isFile();
  } catch {
    return false;
  }
}

function defaultFixtureFiles(): string[] {
  const sitesFolder = resolve(REPO_ROOT, 'fixtures/sites');
  const siteFiles = readdirSync(sitesFolder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => resolve(sitesFolder, name));
  const cashbackFolder = resolve(REPO_ROOT, 'fixtures/cashback');
  const cashbackFiles = readdirSync(cashbackFolder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => resolve(cashbackFolder, name));
  const contentFolder = resolve(REPO_ROOT, 'fixtures/content');
  const contentFiles = readdirSync(contentFolder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => resolve(contentFolder, name));
  return [...siteFiles, resolve(REPO_ROOT, 'fixtures/default-site.json'), resolve(REPO_ROOT, 'fixtures/bin-ranges.json'), ...cashbackFiles, ...contentFiles];
}

/** Site ids a data fixture may name: the files of `fixtures/sites` and "default". */
function knownSiteIds(): Set<string> {
  const names = readdirSync(resolve(REPO_ROOT, 'fixtures/sites')).filter((name) => name.endsWith('.json'));
  return new Set([...names.map((name) => name.replace(/\.json$/, '')), 'default']);
}

/** Data fixtures checked by their own rules, by file name; every other file is a site. */
const DATA_FIXTURE_CHECKS: Readonly<Record<string, (value: unknown, file: string) => FixtureMistake[]>> = {
  'bin-ranges.json': (value, file) => checkBinRanges(value, file, knownSiteIds()),
};

/** Every file of a `cashback` folder is a demo cashback statement (ADR 0010). */
function checkCashbackFile(value: unknown, file: string): FixtureMistake[] {
  const mistakes: FixtureMistake[] = [];
  checkCashbackStatement(value, file, mistakes);
  return mistakes;
}

/** Every file of a `content` folder is a locale's texts (SPEC §7), counted texts included (ADR 0013). */
function checkContentFile(value: unknown, file: string): FixtureMistake[] {
  const mistakes: FixtureMistake[] = [];
  checkContent(value, file, mistakes);
  return mistakes;
}

/** The check of a data fixture by the folder it is in; undefined for a site. */
const FOLDER_CHECKS: Readonly<Record<string, (value: unknown, file: string) => FixtureMistake[]>> = {
  cashback: checkCashbackFile,
  content: checkContentFile,
};

function checkFile(displayName: string, absolutePath: string): FixtureMistake[] {
  let text: string;
  try {
    text = readFileSync(absolutePath, 'utf8');
  } catch (error) {
    return [{ file: displayName, path: '$', expected: 'a readable JSON file', actual: (error as Error).message }];
  }
  const dataCheck = DATA_FIXTURE_CHECKS[basename(absolutePath)] ?? FOLDER_CHECKS[basename(dirname(absolutePath))];
  if (dataCheck === undefined) return checkFixtureText(text, displayName, { publicFileExists: isPublicFile });
  try {
    return dataCheck(JSON.parse(text) as unknown, displayName);
  } catch (error) {
    return [{ file: displayName, path: '$', expected: 'valid JSON', actual: (error as Error).message }];
  }
}

function formatMistake({ file, path, expected, actual }: FixtureMistake): string {
  return `${file}: ${path}: expected ${expected}${actual === undefined ? '' : `, got ${actual}`}`;
}

/**
 * `--write-schema` rewrites the published JSON Schema from fixture-format.ts (README "Adding a site");
 * tests/schemas/site-config/site-fixture-schema-file.test.ts fails while the two disagree.
 */
if (process.argv[2] === '--write-schema') {
  writeFileSync(resolve(REPO_ROOT, SITE_FIXTURE_SCHEMA_FILE), siteFixtureSchemaText());
  console.log(`sites:check: wrote ${SITE_FIXTURE_SCHEMA_FILE}`);
  process.exit(0);
}

const requested = process.argv.slice(2);
const files =
  requested.length > 0
    ? requested.map((arg) => ({ displayName: arg, absolutePath: resolve(process.cwd(), arg) }))
    : defaultFixtureFiles().map((path) => ({ displayName: relative(REPO_ROOT, path), absolutePath: path }));

/** What a site file could say better without being wrong (a regexp-only field without an example, a setting without effect); never fails the check. */
function warningsOf(displayName: string, absolutePath: string): FixtureMistake[] {
  const isDataFixture = DATA_FIXTURE_CHECKS[basename(absolutePath)] !== undefined || basename(dirname(absolutePath)) === 'cashback';
  if (isDataFixture) return [];
  try {
    const value = JSON.parse(readFileSync(absolutePath, 'utf8')) as unknown;
    return [...checkSiteFixtureWarnings(value, displayName), ...checkSettingsWithoutEffect(value, displayName)];
  } catch {
    return []; // the mistakes above already name an unreadable file
  }
}

/** The texts the portal serves, whatever files are checked: a site is simulated against the repository's content. */
function simulationInputs(): SimulationInputs {
  const contentFolder = resolve(REPO_ROOT, 'fixtures/content');
  const content = new Map(
    readdirSync(contentFolder)
      .filter((name) => name.endsWith('.json'))
      .map(
        (name) =>
          [name.replace(/\.json$/, ''), JSON.parse(readFileSync(resolve(contentFolder, name), 'utf8')) as Record<string, Record<string, string>>] as const,
      ),
  );
  const now = new Date();
  return { today: { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1, day: now.getUTCDate() }, content };
}

/** Only a site file the lint passes is simulated: the forms are built from a configuration the portal could serve. */
function isSiteFile(absolutePath: string): boolean {
  return DATA_FIXTURE_CHECKS[basename(absolutePath)] === undefined && FOLDER_CHECKS[basename(dirname(absolutePath))] === undefined;
}

const checked = files.map((file) => ({ ...file, mistakes: checkFile(file.displayName, file.absolutePath) }));
const inputs = simulationInputs();
const simulations = checked
  .filter(({ absolutePath, mistakes }) => mistakes.length === 0 && isSiteFile(absolutePath))
  .map(({ displayName, absolutePath }) => simulateSite(JSON.parse(readFileSync(absolutePath, 'utf8')) as SiteConfig, displayName, inputs));
const mistakes = [...checked.flatMap((file) => file.mistakes), ...simulations.flatMap((simulation) => simulation.mistakes)];
const warnings = [
  ...files.flatMap(({ displayName, absolutePath }) => warningsOf(displayName, absolutePath)),
  ...simulations.flatMap((simulation) => simulation.warnings),
];
for (const mistake of mistakes) console.log(formatMistake(mistake));
for (const warning of warnings) console.log(`warning: ${formatMistake(warning)}`);
// Each set of allowed keys once per run, however many messages point at it (ADR 0001 "Rules beyond the format").
const allowedKeys = new Map(mistakes.flatMap(({ allowed }) => (allowed === undefined ? [] : [[allowed.of, allowed.values] as const])));
for (const [of, values] of allowedKeys) console.log(`allowed ${of === 'feature names' ? 'feature names' : `keys of ${of}`}: ${values.join(', ')}`);
console.log(`sites:check: ${files.length} files, ${mistakes.length} mistakes${warnings.length > 0 ? `, ${warnings.length} warnings` : ''}`);
process.exitCode = mistakes.length > 0 ? 1 : 0;
