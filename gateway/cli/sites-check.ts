/**
 * `npm run sites:check [files…]`: the configuration author's lint (docs/decisions/0001-site-fixture-format.md).
 * Without arguments it checks every `fixtures/sites/*.json` and `fixtures/default-site.json`; with
 * arguments, those files (relative to the current directory). One line per mistake, a summary, and
 * exit code 1 when anything is wrong, so CI and `npm test` stop on a broken fixture.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkFixtureText, type FixtureMistake } from '../../schemas/site-config/fixture-check';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

function defaultFixtureFiles(): string[] {
  const sitesFolder = resolve(REPO_ROOT, 'fixtures/sites');
  const siteFiles = readdirSync(sitesFolder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => resolve(sitesFolder, name));
  return [...siteFiles, resolve(REPO_ROOT, 'fixtures/default-site.json')];
}

function checkFile(displayName: string, absolutePath: string): FixtureMistake[] {
  let text: string;
  try {
    text = readFileSync(absolutePath, 'utf8');
  } catch (error) {
    return [{ file: displayName, path: '$', expected: 'a readable JSON file', actual: (error as Error).message }];
  }
  return checkFixtureText(text, displayName);
}

function formatMistake({ file, path, expected, actual }: FixtureMistake): string {
  return `${file}: ${path}: expected ${expected}${actual === undefined ? '' : `, got ${actual}`}`;
}

const requested = process.argv.slice(2);
const files =
  requested.length > 0
    ? requested.map((arg) => ({ displayName: arg, absolutePath: resolve(process.cwd(), arg) }))
    : defaultFixtureFiles().map((path) => ({ displayName: relative(REPO_ROOT, path), absolutePath: path }));

const mistakes = files.flatMap(({ displayName, absolutePath }) => checkFile(displayName, absolutePath));
for (const mistake of mistakes) console.log(formatMistake(mistake));
console.log(`sites:check: ${files.length} files, ${mistakes.length} mistakes`);
process.exitCode = mistakes.length > 0 ? 1 : 0;
