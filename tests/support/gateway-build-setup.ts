import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { bundleGateway, REPO_ROOT } from '../../gateway/cli/gateway-bundle';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A fresh PGlite data dir, dumped once per run (tests/gateway/support/database-legs.ts `openTestPglite`). */
    pgliteInitialData: string;
  }
}

/**
 * The gateway project's tests that start the real gateway process (tests/gateway/main.test.ts, the crash
 * tests) run it as `npm start` does: built once per run, in a folder of this run's own. Beside it, an empty
 * PGlite data dir dumped once: initdb is most of a PGlite start (about 5 times a start from the dump), and
 * every gateway test file opens at least one in-memory database.
 */
export default async function gatewayBuildSetup(project: TestProject): Promise<() => Promise<void>> {
  await mkdir(join(REPO_ROOT, 'build'), { recursive: true });
  const gatewayDir = await mkdtemp(join(REPO_ROOT, 'build', 'unit-gateway-'));
  const cleanUp = () => rm(gatewayDir, { recursive: true, force: true });
  try {
    const [entry, initialData] = await Promise.all([bundleGateway(gatewayDir), dumpEmptyPglite(join(gatewayDir, 'pglite-initdb.tar'))]);
    project.provide('portalGateway', { entry });
    project.provide('pgliteInitialData', initialData);
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return cleanUp;
}

async function dumpEmptyPglite(file: string): Promise<string> {
  const pglite = await PGlite.create();
  try {
    await writeFile(file, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  } finally {
    await pglite.close();
  }
  return file;
}
