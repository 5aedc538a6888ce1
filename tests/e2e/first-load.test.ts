import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SERVER_PAGE_DATA_ID } from '../../schemas/pages/server-page';
import { collectCspViolations, pendingCspViolations, saveScreenshot, takeCspViolations } from './support/browser';
import { REPO_ROOT } from './support/paths';
import { browserTest, type PortalProcess } from './support/browser-test';

// This file's gateway runs without the test hooks (GATEWAY_TEST_MODE), as a plain development start does.
browserTest.override('portalEnv', {});

// The first browser test: the portal as `npm start` runs it, in Debian's Chromium. SPEC §2: page language
// follows the locale; the title is brand - title - brand; site configuration is resolved for all routes (on the
// server for a first screen, ADR 0024).
function fixtureSiteName(siteId: string): string {
  return (JSON.parse(readFileSync(`${REPO_ROOT}/fixtures/sites/${siteId}.json`, 'utf8')) as { name: string }).name;
}

describe('the login route in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;

  browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
    portal = filePortal;
    browser = fileBrowser;
  });

  it.each([
    ['firstbank', 'en_us', 'en-US', 'ltr'],
    ['bancosol', 'pt_br', 'pt-BR', 'ltr'],
    ['dohabank', 'ar_qa', 'ar-QA', 'rtl'],
  ])('%s/%s loads with lang %s, direction %s and the site in the title', async (siteId, locale, lang, direction) => {
    const routeTitle = await contentText(locale, 'title.login');
    const context = await browser.newContext();
    const page = await context.newPage();
    const cspViolations = collectCspViolations(page);
    const siteConfigRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/site-config-service/config/site/')) siteConfigRequests.push(request.headers()['x-site-id'] ?? '');
    });

    const response = await page.goto(`${portal.baseUrl}/${siteId}/${locale}/account/login`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(response?.headers()['content-security-policy']).not.toContain('unsafe-eval');
    await expect.poll(() => page.title()).toBe(`${fixtureSiteName(siteId)} - ${routeTitle} - ${await brandOf(locale)}`);

    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    expect(await page.getAttribute('html', 'dir')).toBe(direction);
    expect(await page.getAttribute('body', 'data-site-id')).toBe(siteId);
    expect(await page.textContent('h1')).toBe(routeTitle);
    // ADR 0024: the page came with its site's configuration, so the browser asks for none after load.
    const pageSiteId = await page.evaluate((dataId) => {
      const data = JSON.parse(document.getElementById(dataId)?.textContent ?? 'null') as {
        store: { gatewayApi: { queries: Record<string, { data?: { siteId?: string } }> } };
      } | null;
      return Object.entries(data?.store.gatewayApi.queries ?? {}).find(([key]) => key.startsWith('getSiteConfig('))?.[1].data?.siteId;
    }, SERVER_PAGE_DATA_ID);
    expect(pageSiteId).toBe(siteId);
    expect(siteConfigRequests).toEqual([]);
    expect(cspViolations).toEqual([]);
    await saveScreenshot(page, `first-load-${siteId}-${locale}-login`);
    await context.close();
  });

  it('blocks an inline script under the policy, and the violation is seen', async () => {
    const page = await browser.newPage();
    const cspViolations = collectCspViolations(page);
    await page.goto(`${portal.baseUrl}/firstbank/en_us/account/login`);
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'document.body.dataset.inlineRan = "yes"';
      document.body.append(script);
    });
    await expect.poll(() => cspViolations.length).toBeGreaterThan(0);
    expect(await page.getAttribute('body', 'data-inline-ran')).toBeNull();
    // Provoked on purpose: taken from the watch every browser test runs under (support/no-csp-violations.ts).
    await expect.poll(() => pendingCspViolations().length).toBe(2);
    takeCspViolations();
    await page.close();
  });

  it('sends an unknown route to the sign-in route', async () => {
    const page = await browser.newPage();
    await page.goto(`${portal.baseUrl}/firstbank/en_us/account/no-such-screen`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/firstbank/en_us/account/login-form');
    await page.close();
  });
});

async function contentText(locale: string, key: string): Promise<string> {
  const content = JSON.parse(readFileSync(`${REPO_ROOT}/fixtures/content/${locale}.json`, 'utf8')) as { common: Record<string, string> };
  const text = content.common[key];
  if (text === undefined) throw new Error(`fixtures/content/${locale}.json has no common.${key}`);
  return text;
}

function brandOf(locale: string): Promise<string> {
  return contentText(locale, 'brand');
}
