import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';
import { bundleGateway } from '../../../gateway/cli/gateway-bundle';
import { CHROMIUM_PATH } from './browser';
import { E2E_DIST_DIR, REPO_ROOT } from './paths';
import { startPortal } from './portal-process';

/**
 * Builds the app and the gateway once for every browser test, as `npm start` does, checks the browser
 * is there, and prepares the data dir every gateway starts from (see PortalGateway).
 */
export default async function globalSetup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Browser tests need Debian's Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (.ci/run does this).`);
  }
  // The browser tests include the site gallery (README "Architecture"); production builds leave it out.
  process.env.VITE_SITE_GALLERY = 'true';
  // And the site studio (docs/decisions/0027-site-studio.md), served by its own process over this build.
  process.env.VITE_SITE_STUDIO = 'true';
  await build({ root: REPO_ROOT, logLevel: 'warn', configFile: `${REPO_ROOT}/vite.config.ts`, build: { outDir: E2E_DIST_DIR, emptyOutDir: true } });
  // A folder of this run's own, so two runs in one checkout never replace each other's gateway.
  await mkdir(join(REPO_ROOT, 'build'), { recursive: true });
  const gatewayDir = await mkdtemp(join(REPO_ROOT, 'build', 'e2e-gateway-'));
  const templateDataDir = await mkdtemp(join(tmpdir(), 'portal-e2e-template-'));
  const cleanUp = async () => {
    await rm(gatewayDir, { recursive: true, force: true });
    await rm(templateDataDir, { recursive: true, force: true });
  };
  try {
    const entry = await bundleGateway(gatewayDir);
    // One cold start migrates and seeds the demo users (argon2); every later gateway starts from a copy.
    const seeding = await startPortal({ DATA_DIR: templateDataDir }, { entry });
    const code = await seeding.stop('SIGTERM');
    if (code !== 0) throw new Error(`the gateway preparing the template data dir exited with ${code}:\n${seeding.output()}`);
    project.provide('portalGateway', { entry, templateDataDir });
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return cleanUp;
}
