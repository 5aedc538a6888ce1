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
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkBinRanges } from '../../schemas/cards/bin-ranges';
import { offersCashbackStatement } from '../../schemas/cards/card-config';
import type { FixtureMistake } from '../../schemas/site-config/fixture-check';
import type { SiteConfig } from '../../schemas/site-config/types';
import { checkCashbackStatement, checkContent } from '../site-files/check-data-fixtures';
import { checkSiteFileText, publicFileIn, simulationInputsFrom, type SiteFileVerdict } from '../site-files/site-file-check';
import { siteFixtureSchemaText, SITE_FIXTURE_SCHEMA_FILE } from '../../schemas/site-config/fixture-format';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The app's static files: Vite copies them to the root of the build, where a site's logo is served from (ADR 0020). */
const isPublicFile = publicFileIn(resolve(REPO_ROOT, 'public'));

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

/**
 * Site ids of `fixtures/sites` whose programme has cashback (ADR 0001 `cashback_enabled`). A file that does not
 * read as a site counts as none: its own check names what is wrong with it.
 */
function siteIdsWithCashback(): Set<string> {
  const folder = resolve(REPO_ROOT, 'fixtures/sites');
  const ids = new Set<string>();
  for (const name of readdirSync(folder).filter((entry) => entry.endsWith('.json'))) {
    try {
      const site = JSON.parse(readFileSync(resolve(folder, name), 'utf8')) as SiteConfig;
      if (Array.isArray(site.siteFeatureConfigurations) && offersCashbackStatement(site)) ids.add(site.siteId);
    } catch {
      continue;
    }
  }
  return ids;
}

/**
 * Every file of a `cashback` folder is a demo cashback statement (ADR 0010), of a site whose programme has
 * cashback: without it the site offers no statement (ADR 0001 `cashback_enabled`), so the lines would never show.
 */
function checkCashbackFile(value: unknown, file: string): FixtureMistake[] {
  const mistakes: FixtureMistake[] = [];
  if (checkCashbackStatement(value, file, mistakes) && !siteIdsWithCashback().has(value.siteId)) {
    mistakes.push({
      file,
      path: '$.siteId',
      expected: 'a site whose pan_capture.cashback_enabled is "true": a programme without cashback shows no statement',
      actual: value.siteId,
    });
  }
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

/** A data fixture's mistakes, or a site file's mistakes and warnings (gateway/site-files/site-file-check.ts, the studio's check too). */
function checkFile(displayName: string, absolutePath: string): SiteFileVerdict {
  let text: string;
  try {
    text = readFileSync(absolutePath, 'utf8');
  } catch (error) {
    return { mistakes: [{ file: displayName, path: '$', expected: 'a readable JSON file', actual: (error as Error).message }], warnings: [], simulated: false };
  }
  const dataCheck = DATA_FIXTURE_CHECKS[basename(absolutePath)] ?? FOLDER_CHECKS[basename(dirname(absolutePath))];
  if (dataCheck === undefined) return checkSiteFileText(text, displayName, { publicFileExists: isPublicFile, inputs });
  try {
    return { mistakes: dataCheck(JSON.parse(text) as unknown, displayName), warnings: [], simulated: false };
  } catch (error) {
    return { mistakes: [{ file: displayName, path: '$', expected: 'valid JSON', actual: (error as Error).message }], warnings: [], simulated: false };
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

// The texts the portal serves, whatever files are checked: a site is simulated against the repository's content.
const inputs = simulationInputsFrom(resolve(REPO_ROOT, 'fixtures/content'), new Date());
const verdicts = files.map((file) => checkFile(file.displayName, file.absolutePath));
const mistakes = verdicts.flatMap((verdict) => verdict.mistakes);
const warnings = verdicts.flatMap((verdict) => verdict.warnings);
for (const mistake of mistakes) console.log(formatMistake(mistake));
for (const warning of warnings) console.log(`warning: ${formatMistake(warning)}`);
// Each set of allowed keys once per run, however many messages point at it (ADR 0001 "Rules beyond the format").
const allowedKeys = new Map(mistakes.flatMap(({ allowed }) => (allowed === undefined ? [] : [[allowed.of, allowed.values] as const])));
for (const [of, values] of allowedKeys) console.log(`allowed ${of === 'feature names' ? 'feature names' : `keys of ${of}`}: ${values.join(', ')}`);
console.log(`sites:check: ${files.length} files, ${mistakes.length} mistakes${warnings.length > 0 ? `, ${warnings.length} warnings` : ''}`);
process.exitCode = mistakes.length > 0 ? 1 : 0;
