import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { TEST_OUTPUT_DIR } from './paths';

/** Debian's Chromium, never a downloaded browser (DESIGN "The real parts"). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags every Chromium of the tests and the bench starts with: headless, and none of the browser's own traffic. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Chromium with the CSP watch on (the security suite, README "Set-up"; DESIGN "Quality bars"): every context
 * and page the returned browser opens records Content-Security-Policy violations, and the e2e project's
 * setup file (`no-csp-violations.ts`) fails the test that saw one.
 */
export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  watchForCspViolations(browser);
  openBrowsers.add(browser);
  browser.once('disconnected', () => openBrowsers.delete(browser));
  return browser;
}

/** Every browser of this test file still open: what a failing test's screenshots are taken of. */
const openBrowsers = new Set<Browser>();

/**
 * A full-page screenshot of every page still open in this file's browsers, under
 * test-output/failures/, named after `label`; answers the files written. A page that cannot be drawn
 * any more (closed, crashed) is passed over: the screenshots are evidence, never a second failure.
 */
export async function screenshotOpenPages(label: string): Promise<string[]> {
  const dir = `${TEST_OUTPUT_DIR}/failures`;
  mkdirSync(dir, { recursive: true });
  const stem = label.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 150);
  const pages = [...openBrowsers].flatMap((browser) => browser.contexts().flatMap((context) => context.pages()));
  const written = await Promise.all(
    pages.map(async (page, index) => {
      const path = `${dir}/${stem}-${index + 1}.png`;
      // `caret: 'initial'`: hiding the caret writes an inline style on every field, and these pages
      // belong to other tests still running; one that is hydrating would see a mismatch it never caused.
      return page.screenshot({ path, fullPage: true, timeout: 10_000, caret: 'initial' }).then(
        () => path,
        () => null,
      );
    }),
  );
  return written.filter((path) => path !== null);
}

/** One reported violation: which channel saw it, the page, and what was refused. */
export interface CspViolation {
  channel: 'console' | 'securitypolicyviolation';
  url: string;
  text: string;
}

/** Every violation seen by any watched browser of this test file and not yet taken. */
const unclaimedViolations: CspViolation[] = [];

/** The violations seen and not yet taken, left in the watch. */
export function pendingCspViolations(): readonly CspViolation[] {
  return [...unclaimedViolations];
}

/** The violations seen since the last call, removed from the watch (a test that provokes some on purpose takes them). */
export function takeCspViolations(): CspViolation[] {
  return unclaimedViolations.splice(0, unclaimedViolations.length);
}

/** Throws, listing them, when any page of any watched browser reported a CSP violation not taken by its test. */
export function assertNoCspViolations(when: string): void {
  const seen = takeCspViolations();
  if (seen.length === 0) return;
  const list = seen.map((violation) => `  [${violation.channel}] ${violation.url}: ${violation.text}`).join('\n');
  throw new Error(`${seen.length} Content-Security-Policy violation(s) ${when}; the app must run under the strict policy:\n${list}`);
}

const CSP_BINDING = '__reportCspViolation';
/**
 * Runs in every document before its own scripts (CDP, so the policy does not block it): Chromium
 * fires `securitypolicyviolation` for every refusal, including ones it does not log to the console.
 */
const CSP_LISTENER = `document.addEventListener('securitypolicyviolation', (event) => {
  const report = window[${JSON.stringify(CSP_BINDING)}];
  if (typeof report === 'function') report(event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline') + (event.sample ? ' (' + event.sample + ')' : ''));
}, true);`;

const watchedContexts = new WeakSet<BrowserContext>();

async function watchContext(context: BrowserContext): Promise<void> {
  if (watchedContexts.has(context)) return;
  watchedContexts.add(context);
  context.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
      unclaimedViolations.push({ channel: 'console', url: message.page()?.url() ?? '', text: message.text() });
    }
  });
  await context.exposeBinding(CSP_BINDING, ({ page }, text: unknown) => {
    unclaimedViolations.push({ channel: 'securitypolicyviolation', url: page?.url() ?? '', text: String(text) });
  });
  await context.addInitScript({ content: CSP_LISTENER });
}

/**
 * Wraps `newContext` and `newPage` so the watch is in place before the test can navigate (the
 * browser's `context` event alone would race the first `goto`).
 */
function watchForCspViolations(browser: Browser): void {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
    const context = await newContext(...args);
    await watchContext(context);
    return context;
  };
  browser.newPage = async (...args: Parameters<Browser['newPage']>) => {
    const context = await browser.newContext(...args);
    const page = await context.newPage();
    // As Playwright's own newPage: closing the page closes the context made for it.
    page.once('close', () => void context.close().catch(() => undefined));
    return page;
  };
}

/**
 * Screenshots are for a person to look at (README "Set-up"): written in every local run, and in CI
 * (`CI=true`, where nobody looks at them) only with `E2E_SCREENSHOTS=1`. A full-page screenshot redraws the
 * whole page at its full height (a long page took 2.4 s on the loaded machine, its viewport alone 0.16 s), and a
 * run takes hundreds. A failing test's screenshots (`screenshotOpenPages`) are always kept.
 */
const SCREENSHOTS_WANTED = process.env.E2E_SCREENSHOTS === '1' || process.env.CI !== 'true';

/**
 * A screenshot under test-output/screenshots/: the whole page, or with `fullPage: false` what the viewport
 * shows (a dialog is fixed to the viewport, and a whole-page picture draws it wherever the page was scrolled).
 */
export async function saveScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  const dir = `${TEST_OUTPUT_DIR}/screenshots`;
  const path = `${dir}/${name}.png`;
  if (!SCREENSHOTS_WANTED) return path;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path, fullPage: options.fullPage ?? true });
  return path;
}

/**
 * Collects every Content-Security-Policy violation the page reports (Chromium logs each one as a
 * console error), so a browser test can assert the app runs under the strict policy. Every page of
 * `launchChromium` is watched anyway; this stays for tests that check one page's list themselves.
 */
export function collectCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}
