import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');
/** Everything a test run leaves for people to look at: screenshots, logs. Ignored by git. */
export const TEST_OUTPUT_DIR = `${REPO_ROOT}/test-output`;
