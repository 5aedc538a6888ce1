import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { FixtureMistake } from '../../../schemas/site-config/fixture-check';
import { checkCashbackStatement } from '../../../gateway/site-files/check-data-fixtures';
import { FIXTURES_DIR, FixtureError, loadFixtures } from '../../../gateway/site-files/load-fixtures';

/**
 * ADR 0010: the demo cashback statements of `fixtures/cashback/*.json` are checked like
 * every fixture (file and JSON path per mistake), at start and by `npm run sites:check`.
 */
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const scratch: string[] = [];
afterAll(() => Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true }))));

async function scratchDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

const GOOD_LINE = { lastFour: '1111', productType: 'C', merchant: 'Corner Café', date: '2026-10-01', amountMinor: 120, currency: 'USD', status: 'ELIGIBLE' };
const BROKEN = {
  email: 'emily.carter@example.com',
  siteId: 'firstbank',
  lines: [
    GOOD_LINE,
    { ...GOOD_LINE, pan: '4111111111111111', lastFour: '41111', merchant: '', date: '2026-02-30', amountMinor: 1.25, currency: 'usd', status: 'PAID' },
  ],
};

describe('checkCashbackStatement', () => {
  it('names each broken member of a line by its path, never repeating a card number', () => {
    const mistakes: FixtureMistake[] = [];
    expect(checkCashbackStatement(BROKEN, 'cashback/emily.json', mistakes)).toBe(false);
    expect(mistakes.map((mistake) => mistake.path)).toEqual([
      '$.lines[1].pan',
      '$.lines[1].lastFour',
      '$.lines[1].merchant',
      '$.lines[1].date',
      '$.lines[1].amountMinor',
      '$.lines[1].currency',
      '$.lines[1].status',
    ]);
    expect(mistakes.every((mistake) => mistake.file === 'cashback/emily.json')).toBe(true);
    expect(JSON.stringify(mistakes)).not.toContain('4111111111111111');
    expect(JSON.stringify(mistakes)).not.toContain('41111');
  });

  it('refuses a statement that is not an object or has no list of lines', () => {
    for (const value of [[], { email: 'a@example.com', siteId: 'firstbank', lines: {} }]) {
      const mistakes: FixtureMistake[] = [];
      expect(checkCashbackStatement(value, 'cashback/x.json', mistakes)).toBe(false);
      expect(mistakes.length).toBeGreaterThan(0);
    }
  });

  it('accepts every statement of the repository', async () => {
    const fixtures = await loadFixtures();
    expect(fixtures.cashbackStatements.map((statement) => statement.lines[0]?.currency).sort()).toEqual(['BRL', 'CAD', 'QAR', 'USD']);
  });
});

describe('loadFixtures with cashback statements', () => {
  it('refuses to start on a malformed statement, a stranger e-mail or another site than the demo user’s', async () => {
    const dir = await scratchDir('cashback-fixtures-');
    await cp(FIXTURES_DIR, dir, { recursive: true });
    await writeFile(join(dir, 'cashback/emily-carter.json'), JSON.stringify(BROKEN));
    await writeFile(join(dir, 'cashback/stranger.json'), JSON.stringify({ email: 'nobody@example.com', siteId: 'firstbank', lines: [GOOD_LINE] }));
    const ana = JSON.parse(await readFile(join(dir, 'cashback/ana-souza.json'), 'utf8'));
    await writeFile(join(dir, 'cashback/ana-souza.json'), JSON.stringify({ ...ana, siteId: 'firstbank' }));

    const failure = await loadFixtures(dir).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FixtureError);
    const mistakes = (failure as FixtureError).mistakes.map((mistake) => `${mistake.file} ${mistake.path}`);
    expect(mistakes).toContain('cashback/emily-carter.json $.lines[1].pan');
    expect(mistakes).toContain('cashback/stranger.json $.email');
    expect(mistakes).toContain('cashback/ana-souza.json $.siteId');
  });
});

describe('npm run sites:check on cashback statements', () => {
  it('fails on a malformed statement with file and path, exit code 1', async () => {
    const dir = join(await scratchDir('cashback-check-'), 'cashback');
    await mkdir(dir);
    const broken = join(dir, 'emily.json');
    await writeFile(broken, JSON.stringify(BROKEN));
    const run = spawnSync('npx', ['tsx', 'gateway/cli/sites-check.ts', broken], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(run.stdout).toContain(`${broken}: $.lines[1].pan: expected no such member`);
    expect(run.stdout).toContain(`${broken}: $.lines[1].currency: expected an ISO 4217 currency code like USD, got "usd"`);
    expect(run.stdout).toContain('sites:check: 1 files, 7 mistakes');
    expect(run.status).toBe(1);
  });
});
