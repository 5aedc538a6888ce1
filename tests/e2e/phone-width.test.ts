import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/accessibility';
import { saveScreenshot } from './support/browser';
import { cookieValue, endsOn } from './support/navigation';
import { browserTest, type PortalProcess } from './support/browser-test';
import { signInForTest } from './support/test-session';

/**
 * Phone width (390 px, DESIGN "pages work at 390 px") in Chromium against the real gateway: the
 * card rows keep the masked number clear of their badge and remove link (SPEC §2 card lists),
 * the registration form links the privacy policy it asks to accept (SPEC §5 pp) and its date of
 * birth moves from part to part as it is typed (SPEC §5 dob); after registering, "check your
 * e-mail" says so in its heading and links to sign-in; a sign-in refused with 429 counts the
 * gateway's Retry-After down live with the button held back (ADR 0008).
 */
const PHONE = { width: 390, height: 844 };

let portal: PortalProcess;
let browser: Browser;

browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
  portal = filePortal;
  browser = fileBrowser;
});

async function phonePage(route: string, siteId: string, locale: string, email?: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: PHONE });
  if (email) await signInForTest(context, portal.baseUrl, email, siteId);
  const page = await context.newPage();
  await page.goto(`${portal.baseUrl}/${siteId}/${locale}/account/${route}`);
  await endsOn(page, route);
  return { context, page };
}

type Box = { x: number; y: number; width: number; height: number };
async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (box === null) throw new Error(`${locator.toString()} is not shown`);
  return box;
}
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (inner: Box, outer: Box) => inner.x >= outer.x - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5;

/** Every row: the masked number overlaps none of `others`, and stays inside its row. */
async function expectNumberClear(page: Page, others: string): Promise<void> {
  const rows = page.locator('.card-rows > li');
  expect(await rows.count()).toBeGreaterThan(0);
  for (const row of await rows.all()) {
    const number = await boxOf(row.locator('.card-row__number'));
    expect(inside(number, await boxOf(row)), `the number leaves its row: ${JSON.stringify(number)}`).toBe(true);
    for (const other of await row.locator(others).all()) {
      const otherBox = await boxOf(other);
      expect(overlap(number, otherBox), `${await other.textContent()} covers the number ${await row.locator('.card-row__number').textContent()}`).toBe(false);
    }
  }
}

describe('at 390 px', () => {
  it('profile cards: the cashback badge does not cover the masked number', async () => {
    const { context, page } = await phonePage('profile', 'firstbank', 'en_us', 'emily.carter@example.com');
    await page.locator('.profile-cards .card-badge').first().waitFor();
    await saveScreenshot(page, 'phone-profile-cards-390');
    await expectNumberClear(page, '.card-badge');
    await context.close();
  });

  it('edit/delete form: the remove link does not cover the masked number', async () => {
    const { context, page } = await phonePage('edit-pan', 'harbourbank', 'zh_hk', 'taiman.chan@example.com');
    await page.locator('.card-rows .card-row__action').first().waitFor();
    await saveScreenshot(page, 'phone-edit-pan-harbourbank-390');
    await expectNumberClear(page, '.card-row__action');
    await expectNoAxeViolations(page, 'edit/delete card form at 390 px');
    await context.close();
  });

  it('registration: the privacy policy to accept is linked; the date of birth moves on as it is typed and back on Backspace', async () => {
    const { context, page } = await phonePage('registration', 'firstbank', 'en_us');
    const policy = page.getByRole('link', { name: 'Read the privacy policy (opens in a new tab)' });
    expect(await policy.getAttribute('href')).toBe('https://www.firstbank.example/privacy');
    expect(await policy.getAttribute('target')).toBe('_blank');
    expect(await policy.isVisible()).toBe(true);

    // firstbank writes dates MM-DD-YYYY: the first part carries the field id.
    await page.locator('#root_dob').click();
    await page.keyboard.type('04');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('root_dob_dd');
    await page.keyboard.type('12');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('root_dob_yyyy');
    await page.keyboard.type('1988');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('root_dob_yyyy');
    expect(await page.locator('#root_dob_yyyy').inputValue()).toBe('1988');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('root_dob_dd');
    // Shift+Tab still leaves the part backwards, as everywhere.
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('root_dob');
    await page.locator('#root_dob_yyyy').fill('1988');
    await page.locator('#root_pp').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'phone-registration-firstbank-390');
    await expectNoAxeViolations(page, 'registration at 390 px');

    // The card step's list: the remove link beside the masked number, never over it.
    await page.locator('#root_first_name').fill('Alex');
    await page.locator('#root_last_name').fill('Morgan');
    await page.locator('#root_email').fill(`phone.${Date.now()}@example.com`);
    await page.locator('#root_password').fill('Phone#Width2025');
    await page.locator('#root_confirm_password').fill('Phone#Width2025');
    await page.locator('#root_nationalId').fill('501234567');
    await page.locator('#root_ninedigitbin').fill('412345678');
    await page.locator('#root_phone').fill('2125550123');
    await page.locator('#root_pp').check();
    await page.locator('main form button[type="submit"]').first().click();
    await endsOn(page, 'add-pan');
    await page.locator('input[name="pan"]').fill('4111 1111 1111 1111');
    await page.locator('.capture-block__submit').click();
    await page.locator('.card-rows .card-row__action').first().waitFor();
    await saveScreenshot(page, 'phone-add-pan-firstbank-390');
    await expectNumberClear(page, '.card-row__action');

    // "Check your e-mail": its own heading, and the way on to sign in.
    await page.locator('main .account-actions button').click();
    await page.getByRole('heading', { level: 1, name: 'Check your e-mail' }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Go to sign in' }).getAttribute('href')).toMatch(/^\/firstbank\/en_us\/account\/login(?:-form)?$/);
    await saveScreenshot(page, 'phone-check-email-firstbank-390');
    await expectNoAxeViolations(page, 'check your e-mail at 390 px');
    await context.close();
  });

  // Last: it spends this gateway's per-IP sign-in allowance (ADR 0008: 30 calls in 5 minutes).
  it('sign-in refused with 429: the countdown starts from the Retry-After the gateway sent and ticks down, the button held back', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${portal.baseUrl}/firstbank/en_us/account/login`);
    await page.locator('#root_username').waitFor();
    const xsrf = (await cookieValue(context, portal.baseUrl, 'XSRF-TOKEN')) ?? '';
    // The per-IP count comes before the form is read, so empty forms spend it without a password check each.
    for (let call = 0; call < 31; call += 1) {
      const answer = await context.request.post(`${portal.baseUrl}/api/user-auth/login`, {
        form: { grant_type: 'password' },
        headers: { 'x-xsrf-token': xsrf },
      });
      if (answer.status() === 429) break;
    }
    await page.locator('#root_username').fill('emily.carter@example.com');
    await page.locator('#root_password').fill('not-the-password');
    const refused = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/user-auth/login') && response.status() === 429);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const retryAfter = Number((await refused).headers()['retry-after']);
    expect(retryAfter).toBeGreaterThan(10);

    const countdown = page.locator('.retry-wait');
    const secondsShown = async () => Number(/(\d+)/.exec((await countdown.textContent()) ?? '')?.[1]);
    await countdown.waitFor();
    const first = await secondsShown();
    expect(first).toBeLessThanOrEqual(retryAfter);
    expect(first).toBeGreaterThanOrEqual(retryAfter - 2);
    expect(await page.getByRole('button', { name: 'Sign in' }).isDisabled()).toBe(true);
    await page.getByRole('alert').filter({ hasText: 'Too many requests. Please wait, then try again.' }).waitFor();
    await expect.poll(secondsShown, { timeout: 10_000 }).toBeLessThanOrEqual(first - 2);
    expect(await page.getByRole('button', { name: 'Sign in' }).isDisabled()).toBe(true);
    await saveScreenshot(page, 'phone-sign-in-rate-limited-390');
    await expectNoAxeViolations(page, 'sign-in waiting out a 429 at 390 px');
    await context.close();
  });
});
