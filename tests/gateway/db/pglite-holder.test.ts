import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { holderFileOf, holdPgliteFolder, PgliteHeldError } from '../../../gateway/db/pglite-holder';

/** README "Admin command": PGlite keeps no lock of its own, so the gateway and `npm run admin` hold its folder in a file. */
const dataDir = await mkdtemp(join(tmpdir(), 'pglite-holder-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));
const folder = join(dataDir, 'db');

it('takes the folder with this process id and gives it back', async () => {
  const release = await holdPgliteFolder(folder, 'gateway');
  expect(JSON.parse(await readFile(holderFileOf(folder), 'utf8'))).toMatchObject({ pid: process.pid, program: 'gateway' });
  await release();
  expect(existsSync(holderFileOf(folder))).toBe(false);
});

it('refuses while another running process holds it (process 1 always runs), and takes over from one that no longer runs', async () => {
  await writeFile(holderFileOf(folder), JSON.stringify({ pid: 1, program: 'gateway', since: '2026-11-28T21:00:00.000Z' }));
  const refused = await holdPgliteFolder(folder, 'admin').catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(PgliteHeldError);
  expect((refused as PgliteHeldError).holder).toEqual({ pid: 1, program: 'gateway', since: '2026-11-28T21:00:00.000Z' });
  await writeFile(holderFileOf(folder), JSON.stringify({ pid: 2 ** 22 + 17, program: 'gateway', since: '2026-11-28T21:00:00.000Z' }));
  const release = await holdPgliteFolder(folder, 'admin');
  expect(JSON.parse(await readFile(holderFileOf(folder), 'utf8'))).toMatchObject({ pid: process.pid, program: 'admin' });
  await release();
});
