import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The README, the fixtures' README and the decision records name files in backticks; a newcomer opens them. Each
 * named path must exist: at the repository root, or for a test under `tests/` (the threat model cites tests as
 * `src/screens/….test.tsx`, `e2e/….test.ts`). Placeholders (`{siteId}`, `*`, `NNN`) name no one file.
 */
const DOCS = ['README.md', 'fixtures/README.md', ...readdirSync(join(REPO_ROOT, 'docs/decisions')).map((name) => `docs/decisions/${name}`)];
const CITED_PATH = /`((?:src|gateway|schemas|widgets|fixtures|tests|docs|e2e|\.ci)\/[A-Za-z0-9_./-]+)`/g;

/** Paths a record names on purpose though they are not here, each with why. */
const NAMED_ON_PURPOSE: ReadonlyMap<string, string> = new Map([
  ['gateway/routes/not-implemented.ts', 'ADR 0022 records that it is gone'],
  ['gateway/db/migrations/NNN_name.sql', "ADR 0003's pattern for a migration's name"],
]);

function citedPaths(doc: string): string[] {
  return [...readFileSync(join(REPO_ROOT, doc), 'utf8').matchAll(CITED_PATH)].map((match) => match[1]!.replace(/[.]+$/, ''));
}

const exists = (path: string) => existsSync(join(REPO_ROOT, path)) || existsSync(join(REPO_ROOT, 'tests', path));

describe('every file the docs name is there (README, fixtures/README.md, docs/decisions)', () => {
  it.each(DOCS)('%s', (doc) => {
    const missing = citedPaths(doc).filter((path) => !NAMED_ON_PURPOSE.has(path) && !exists(path));
    expect(missing).toEqual([]);
  });

  it('reads the paths it checks (a renamed folder would otherwise pass unseen)', () => {
    expect(citedPaths('README.md').length).toBeGreaterThan(50);
  });
});

describe('the content groups fixtures/README.md names', () => {
  it('are every group of the default texts (fixtures/content/en_us.json)', () => {
    const groups = Object.keys(JSON.parse(readFileSync(join(REPO_ROOT, 'fixtures/content/en_us.json'), 'utf8')) as Record<string, unknown>);
    const row = readFileSync(join(REPO_ROOT, 'fixtures/README.md'), 'utf8')
      .split('\n')
      .find((line) => line.startsWith('| `content/{locale}.json`'))!;
    expect(groups.filter((group) => !row.includes(`\`${group}\``))).toEqual([]);
  });
});

describe('every decision record the code names is there', () => {
  const RECORD = /docs\/decisions\/[0-9]{4}-[a-z0-9-]+\.md/g;
  const CODE = /\.(?:ts|tsx|mjs|sql|css|html)$/;
  function codeFiles(folder: string): string[] {
    return readdirSync(join(REPO_ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : codeFiles(path);
      return CODE.test(entry.name) ? [path] : [];
    });
  }
  const files = ['src', 'gateway', 'schemas', 'widgets', 'tests'].flatMap(codeFiles);

  it('in comments of src, gateway, schemas, widgets and tests, migrations included (a renamed record left one stale)', () => {
    const stale = files.flatMap((file) =>
      [...readFileSync(join(REPO_ROOT, file), 'utf8').matchAll(RECORD)]
        .map((match) => match[0])
        .filter((record) => !existsSync(join(REPO_ROOT, record)))
        .map((record) => `${file}: ${record}`),
    );
    expect(stale).toEqual([]);
  });

  it('reads the files it checks', () => {
    expect(files.filter((file) => file.endsWith('.sql')).length).toBeGreaterThan(20);
  });
});
