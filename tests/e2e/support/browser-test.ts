import { test } from 'vitest';
import { launchChromium } from './browser';
import { startPortal } from './portal-process';

export type { PortalProcess } from './portal-process';

/** The gateway's environment when a file sets none: the test hooks on (the dev outbox, the test clock, injected failures). */
const WITH_TEST_HOOKS: Record<string, string> = { GATEWAY_TEST_MODE: 'true' };

/**
 * The one set-up of every browser file (ADR 0004): a real gateway process on a free port with its own data
 * dir, and Debian's Chromium, each started once per file and stopped after its last test. They are file
 * fixtures, not test ones: a gateway start and a browser launch are most of a file's set-up time, and the
 * ordinary files share one page's state across their tests in order. Both start lazily, for the first hook
 * or test that asks for them, so a file that never asks for `portal` starts no gateway.
 *
 * `portalEnv` is the gateway's environment; a file that needs another one sets it at its top level, e.g.
 * `browserTest.override('portalEnv', {})` to run without the test hooks. A file's `beforeAll` takes the
 * fixtures from `browserTest.beforeAll` (the plain `beforeAll` is given none).
 */
export const browserTest = test
  .extend('portalEnv', { scope: 'file' }, WITH_TEST_HOOKS)
  .extend('portal', { scope: 'file' }, async ({ portalEnv }, { onCleanup }) => {
    const portal = await startPortal(portalEnv);
    onCleanup(async () => {
      await portal.stop();
    });
    return portal;
  })
  // eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from its first parameter, which must be a pattern
  .extend('browser', { scope: 'file' }, async ({}, { onCleanup }) => {
    const browser = await launchChromium();
    onCleanup(() => browser.close());
    return browser;
  });
