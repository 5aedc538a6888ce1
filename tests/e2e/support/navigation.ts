import type { BrowserContext, Page } from 'playwright-core';
import { expect, vi } from 'vitest';

/** The account route a page is on: the path after `/account/` (SPEC §2 base path). */
export function routeOf(page: Page): string {
  return new URL(page.url()).pathname.split('/account/')[1] ?? '';
}

/**
 * Retries `assertion` until it passes or `timeoutMs` runs out, then throws its last failure: expect.poll's
 * job for steps that run side by side (the journey matrices), where expect.poll cannot tell which test
 * it belongs to.
 */
export async function eventually(assertion: () => Promise<void> | void, timeoutMs = 5_000): Promise<void> {
  await vi.waitFor(assertion, { timeout: timeoutMs, interval: 50 });
}

/**
 * Waits until the page has settled on `route` and that screen (not the one before it, still
 * drawn while the address bar already shows the new route) has drawn its heading, and the app runs the page.
 */
export async function endsOn(page: Page, route: string): Promise<void> {
  await eventually(async () => expect(routeOf(page)).toBe(route), 15_000);
  await page.locator(`main[data-route="${route}"] h1`).first().waitFor({ timeout: 15_000 });
  // A screen the server rendered shows before the app runs it (ADR 0024): the tests drive the app, so they wait for
  // it to take the page over; what the page does before that is tests/e2e/server-pages.test.ts's.
  await page.waitForFunction(appRunsThePage, undefined, { timeout: 15_000 });
}

/**
 * Runs in the page: React has taken over the app's shell (its fiber key is on the element, what hydrateRoot and
 * createRoot alike leave) and a form it hydrated has been given to the person (the server's form is sent with its
 * submit button disabled, ADR 0024; the app's own forms never disable it).
 */
function appRunsThePage(): boolean {
  const shell = document.querySelector('#root .shell');
  const hydrated = shell !== null && Object.keys(shell).some((key) => key.startsWith('__reactFiber'));
  return hydrated && document.querySelector('#root .site-form button[type="submit"][disabled]') === null;
}

/** Whether the app runs the page now: a screen the server rendered shows before it does (ADR 0024). */
export async function appHasTakenOver(page: Page): Promise<boolean> {
  return page.evaluate(appRunsThePage);
}

/** The value of a cookie the browser holds for the portal, or undefined. */
export async function cookieValue(context: BrowserContext, baseUrl: string, name: string): Promise<string | undefined> {
  return (await context.cookies(baseUrl)).find((candidate) => candidate.name === name)?.value;
}
