import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');
/** Everything a test run leaves for people to look at: screenshots, logs. Ignored by git. */
export const TEST_OUTPUT_DIR = `${REPO_ROOT}/test-output`;
/**
 * Where the browser tests build the app and the gateway serves it from (DIST_DIR): `dist` unless
 * E2E_DIST_DIR names another folder, so two test runs in one checkout never empty each other's build.
 */
export const E2E_DIST_DIR = process.env.E2E_DIST_DIR ?? `${REPO_ROOT}/dist`;
