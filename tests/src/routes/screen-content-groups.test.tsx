// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_ROUTES } from '../../../src/app/route-names';
import { answerWith, renderPortal, resetFakePortal, sent, signedInAnswers, signInTheBrowser } from '../screens/support/fake-portal';

/**
 * Each screen's texts arrive before it is drawn (src/routes/account-loader.ts SCREEN_CONTENT_GROUPS): a content group
 * the screen reads that its loader did not fetch is asked for after the screen shows, and until it answers the screen
 * shows the bundled English (seen on delete-profile in the pseudo-locale: its form's labels in English).
 */
const BASE = '/firstbank/en_us/account/';

function contentTypesIn(from: number): string[] {
  return sent
    .slice(from)
    .filter((call) => call.url === 'bin/aem/rest')
    .map((call) => (call.params as { contentType: string }).contentType);
}

beforeEach(() => {
  resetFakePortal();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe.each([
  ['a guest', false],
  ['a signed-in card holder', true],
])('%s', (_who, signedIn) => {
  it.each(ACCOUNT_ROUTES)('%s: the screen it lands on asks for no text after its loader', async (route) => {
    if (signedIn) signInTheBrowser();
    answerWith((call) => (signedIn ? signedInAnswers(call) : undefined));
    const { router } = renderPortal(`${BASE}${route}`);
    // The moment the router is done loading (the last loader answered, the screen is about to render).
    let loaded = -1;
    const stop = router.subscribe((state) => {
      if (state.initialized && state.navigation.state === 'idle') loaded = sent.length;
    });
    await screen.findAllByRole('heading', { level: 1 }, { timeout: 4000 });
    // What the screen asks for once drawn comes within a few ticks.
    await new Promise((resolve) => setTimeout(resolve, 50));
    stop();
    expect(loaded, 'the router finished loading').toBeGreaterThanOrEqual(0);
    const preloaded = new Set(contentTypesIn(0).slice(0, contentTypesIn(0).length - contentTypesIn(loaded).length));
    expect(
      contentTypesIn(loaded).filter((type) => !preloaded.has(type)),
      `${router.state.location.pathname}: content groups read after the screen was drawn`,
    ).toEqual([]);
  });
});
