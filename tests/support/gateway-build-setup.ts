import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { bundleGateway, REPO_ROOT } from '../../gateway/cli/gateway-bundle';

/**
 * The unit project's tests that start the real gateway process (tests/gateway/main.test.ts, the crash
 * tests) run it as `npm start` does: built once per run, in a folder of this run's own.
 */
export default async function gatewayBuildSetup(project: TestProject): Promise<() => Promise<void>> {
  await mkdir(join(REPO_ROOT, 'build'), { recursive: true });
  const gatewayDir = await mkdtemp(join(REPO_ROOT, 'build', 'unit-gateway-'));
  const cleanUp = () => rm(gatewayDir, { recursive: true, force: true });
  try {
    project.provide('portalGateway', { entry: await bundleGateway(gatewayDir) });
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return cleanUp;
}
