import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { listSiteFixtures } from '../support/site-fixtures';
import { activateWithPassword, activationLink } from './support/account-helpers';
import { saveScreenshot } from './support/browser';
import { browserTest, type PortalProcess } from './support/browser-test';
import { endsOn } from './support/navigation';
import { fillForm } from './support/site-journey/define-site-journey-matrix';
import { JOURNEY_PASSWORD } from './support/site-journey/field-values';
import { contentTextsIn, journeySiteOf } from './support/site-journey/journey-site';
import { eligibleTestCards, groupedCard } from './support/site-journey/test-cards';
import { signInForTest } from './support/test-session';

/**
 * A long e-mail address at phone width (widgets/text/EmailAddress.tsx): the page never scrolls sideways, and the
 * address breaks only after its "@" or before a dot, never in the middle of a word.
 */
let portal: PortalProcess;
let browser: Browser;

browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
  portal = filePortal;
  browser = fileBrowser;
});

const PHONE = { width: 390, height: 844 };
const run = Date.now().toString(36);
const LONG_ADDRESS = `valentina.gomez-hernandez.longname${run}@subdomain.example-bank.com`;
const url = (siteId: string, locale: string, route: string) => `${portal.baseUrl}/${siteId}/${locale}/account/${route}`;

/** How the shown address lies on the screen: the page's width, and for each of its pieces, the lines it covers. */
async function addressLayout(page: Page, selector: string) {
  return page.evaluate((within) => {
    const address = document.querySelector(`${within} .email-address`);
    const parts = [...(address?.querySelectorAll('.email-address__part') ?? [])];
    return {
      scrollWidth: document.documentElement.scrollWidth,
      text: address?.textContent ?? '',
      linesPerPart: parts.map((part) => part.getClientRects().length),
      lineTops: [...new Set(parts.map((part) => Math.round(part.getBoundingClientRect().top)))],
      rightmost: Math.max(...parts.map((part) => part.getBoundingClientRect().right)),
    };
  }, selector);
}

async function expectBrokenOnlyBetweenPieces(page: Page, selector: string): Promise<void> {
  const layout = await addressLayout(page, selector);
  expect(layout.text).toBe(LONG_ADDRESS);
  expect(layout.scrollWidth).toBeLessThanOrEqual(PHONE.width);
  expect(layout.rightmost).toBeLessThanOrEqual(PHONE.width);
  // Each piece (`valentina`, `.gomez-hernandez`, …, `.longname…@`, `subdomain`, …) on one line: the breaks, and
  // there are some at this width, fall after the "@" or before a dot.
  expect(layout.linesPerPart.every((lines) => lines === 1)).toBe(true);
  expect(layout.lineTops.length).toBeGreaterThan(1);
}

describe('a long e-mail address at 390 px breaks only after "@" or before a dot', () => {
  it('tejobank: the "Check your e-mail" notice after registering, then the profile of that account', async () => {
    const t = contentTextsIn('en_us');
    const site = listSiteFixtures().find((fixture) => fixture.siteId === 'tejobank')!;
    const journey = journeySiteOf(site, 'en_us');
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(url('tejobank', 'en_us', 'registration'));
    await endsOn(page, 'registration');
    await fillForm(page, 'tejobank', journey.registration.schema, journey.registration.uiSchema, LONG_ADDRESS);
    await page.locator('.site-form button[type="submit"]').first().click();
    await endsOn(page, 'add-pan');
    await page.locator('input[name="pan"]').fill(groupedCard(eligibleTestCards('tejobank', 1)[0]!));
    await page.locator('input[name="cvv"]').fill('737');
    await page.locator('.capture-block__submit').click();
    await page.locator('.card-rows .card-row__number').first().waitFor();
    await page.getByRole('button', { name: t('account', 'addCard.submit'), exact: true }).click();
    await page.getByRole('heading', { name: t('account', 'checkEmail.title') }).waitFor();
    await page.locator('[role="status"] .email-address').waitFor();
    await saveScreenshot(page, 'email-address-tejobank-check-email-390');
    await expectBrokenOnlyBetweenPieces(page, '[role="status"]');

    // The same address on the profile of the activated account (ADR 0009 "Activation").
    await activateWithPassword(page, await activationLink(context.request, portal.baseUrl, LONG_ADDRESS), JOURNEY_PASSWORD);
    await page.getByText(t('account', 'activate.success')).waitFor();
    await signInForTest(context, portal.baseUrl, LONG_ADDRESS, 'tejobank');
    await page.goto(url('tejobank', 'en_us', 'profile'));
    await endsOn(page, 'profile');
    await page.locator('.profile-summary__email .email-address').waitFor();
    await saveScreenshot(page, 'email-address-tejobank-profile-390');
    await expectBrokenOnlyBetweenPieces(page, '.profile-summary__email');
    await context.close();
  });
});
