import { afterEach } from 'vitest';
import { screenshotOpenPages } from './browser';

/**
 * Setup file of the e2e project: when a browser test fails, every page its file's browsers still have
 * open is kept as a screenshot (test-output/failures/, named after the file and the test), so a failure
 * in CI can be looked at, not only read.
 */
afterEach(async (context) => {
  if (context.task.result?.state !== 'fail') return;
  const file = context.task.file.name.replace(/^.*\//, '').replace(/\.test\.ts$/, '');
  const written = await screenshotOpenPages(`${file}-${context.task.name}`);
  if (written.length > 0) console.error(`kept ${written.length} screenshot(s) of the failing test: ${written.join(', ')}`);
});
