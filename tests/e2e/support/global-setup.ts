import { existsSync } from 'node:fs';
import { build } from 'vite';
import { CHROMIUM_PATH } from './browser';
import { E2E_DIST_DIR, REPO_ROOT } from './paths';

/** Builds the app once for every browser test, as `npm start` does, and checks the browser is there. */
export default async function globalSetup(): Promise<void> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Browser tests need Debian's Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (.ci/run does this).`);
  }
  // The browser tests include the site gallery (issue 3 item 8); production builds leave it out.
  process.env.VITE_SITE_GALLERY = 'true';
  await build({ root: REPO_ROOT, logLevel: 'warn', configFile: `${REPO_ROOT}/vite.config.ts`, build: { outDir: E2E_DIST_DIR, emptyOutDir: true } });
}
