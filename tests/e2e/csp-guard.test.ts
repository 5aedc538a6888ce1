import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { assertNoCspViolations, collectCspViolations, pendingCspViolations, takeCspViolations } from './support/browser';
import { browserTest, type PortalProcess } from './support/browser-test';

/**
 * The security suite (README "Set-up"): the CSP watch every browser test runs under
 * (tests/e2e/support/no-csp-violations.ts) really catches a violation. An inline script injected into a page
 * the gateway serves is refused by the strict policy, and the watch sees it on both channels, on a page
 * opened either way.
 */
describe('the CSP violation watch of every browser test', () => {
  let portal: PortalProcess;
  let browser: Browser;

  browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
    portal = filePortal;
    browser = fileBrowser;
  });

  const injectInlineScript = `(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true';
    document.head.append(script);
    return window.__inlineRan === true;
  })()`;

  it.each([
    ['a page of browser.newContext()', async () => (await browser.newContext()).newPage()],
    ['a page of browser.newPage()', () => browser.newPage()],
  ])('catches an injected inline script on %s, from the console and from securitypolicyviolation', async (_how, open) => {
    const page = await open();
    const pageList = collectCspViolations(page);
    await page.goto(`${portal.baseUrl}/firstbank/en_us/account/login-form`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(takeCspViolations(), 'the sign-in page itself runs under the policy').toEqual([]);

    const ran = await page.evaluate(injectInlineScript);
    expect(ran, 'the strict policy must refuse the inline script').toBe(false);
    // Each channel reports the refusal once; both arrive asynchronously.
    await expect
      .poll(
        () =>
          pendingCspViolations()
            .map((violation) => violation.channel)
            .sort(),
        { timeout: 5_000 },
      )
      .toEqual(['console', 'securitypolicyviolation']);
    expect(
      takeCspViolations()
        .map((violation) => violation.text)
        .join('\n'),
    ).toMatch(/script-src/);
    expect(pageList.join('\n')).toMatch(/inline script violates the following Content Security Policy directive 'script-src 'self''/);
    await page.close();
  });

  it('fails the test that saw a violation, listing it, and passes once it is taken', async () => {
    const page = await browser.newPage();
    await page.goto(`${portal.baseUrl}/api/health`);
    await page.evaluate(injectInlineScript);
    await expect.poll(() => pendingCspViolations().length, { timeout: 5_000 }).toBe(2);
    expect(() => assertNoCspViolations('here')).toThrow(/2 Content-Security-Policy violation\(s\) here[\s\S]*\/api\/health: .*script-src/);
    // The assertion took what it reported: the next check of this test passes.
    expect(() => assertNoCspViolations('after')).not.toThrow();
    await page.close();
  });
});
