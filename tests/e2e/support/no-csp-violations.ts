import { afterAll, afterEach } from 'vitest';
import { assertNoCspViolations } from './browser';

/**
 * Setup file of the e2e project (the security suite, README "Set-up"): every page a browser test opens
 * through `launchChromium` is watched for Content-Security-Policy violations; the test that saw one fails
 * (and a file whose hooks saw one fails at its end). A test that provokes a violation on purpose
 * takes it with `takeCspViolations()`.
 */
afterEach((context) => {
  assertNoCspViolations(`during "${context.task.name}"`);
});

afterAll(() => {
  assertNoCspViolations('in the hooks of this file');
});
