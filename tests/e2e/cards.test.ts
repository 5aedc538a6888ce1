import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/accessibility';
import { collectCspViolations, saveScreenshot } from './support/browser';
import { browserTest, type PortalProcess } from './support/browser-test';
import { signInForTest } from './support/test-session';

/**
 * The card screens in Chromium against the real gateway (ADR 0011): every SPEC §2 card variant on sites
 * with limit 2 (northbank), an unbounded limit (eurobank), cashback on (firstbank), card updates
 * off (harbourbank: the edit/delete form), cards not optional (sabana: last-card refusal) and the
 * vpp tenant (vppcards: the standalone form); the §8 texts of a failed call of each kind, with the
 * X-CID the gateway sent; keyboard-only use of the menu and the modals. Every variant is checked
 * with axe-core against WCAG 2.2 A/AA (DESIGN "Quality bars": every screen passes axe with no violations).
 */
let portal: PortalProcess;
let browser: Browser;

browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
  portal = filePortal;
  browser = fileBrowser;
});

async function signedInPage(
  email: string,
  siteId: string,
  locale: string,
  route = 'edit-pan',
): Promise<{ context: BrowserContext; page: Page; cspViolations: string[] }> {
  const context = await browser.newContext();
  await signInForTest(context, portal.baseUrl, email, siteId);
  const page = await context.newPage();
  const cspViolations = collectCspViolations(page);
  await page.goto(`${portal.baseUrl}/${siteId}/${locale}/account/${route}`);
  return { context, page, cspViolations };
}

/** ADR 0011 test hook: the next matching call answers `status` once. */
async function failNext(context: BrowserContext, method: string, path: string, status: number): Promise<void> {
  const answer = await context.request.post(`${portal.baseUrl}/api/test-support/fail-next`, { data: { method, path, status } });
  expect(answer.ok()).toBe(true);
}

const cardInput = (page: Page) => page.locator('input[name="pan"]');
const cardRows = (page: Page) => page.locator('.card-rows > li');
const cardNumbers = (page: Page) => page.locator('.card-rows .card-row__number');

async function typeCard(page: Page, number: string): Promise<void> {
  await cardInput(page).click();
  await cardInput(page).pressSequentially(number);
}

async function pasteCard(page: Page, number: string): Promise<void> {
  await cardInput(page).focus();
  await cardInput(page).evaluate((input, text) => {
    const data = new DataTransfer();
    data.setData('text/plain', text);
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, number);
}

/** The X-CID of the next answer to `path` (the §8 texts carry it). */
function correlationIdOf(page: Page, method: string, path: RegExp): Promise<string> {
  return page
    .waitForResponse((response) => response.request().method() === method && path.test(new URL(response.url()).pathname) && response.status() >= 400)
    .then((response) => response.headers()['x-cid'] ?? '');
}

describe('firstbank (cashback on, limit 5): the managed list and the capture block', () => {
  it('adds by typing and by pasting both shapes, refuses a duplicate and an ineligible number', async () => {
    const { context, page, cspViolations } = await signedInPage('emily.carter@example.com', 'firstbank', 'en_us');
    await expect.poll(() => cardNumbers(page).allTextContents()).toEqual(['•••• XXXX XXXX XXXX 1111']);
    await saveScreenshot(page, 'cards-firstbank-managed-list');
    await expectNoAxeViolations(page, 'cards: managed list');

    const add = page.getByRole('button', { name: 'Add card' });
    expect(await add.isDisabled()).toBe(true);
    await typeCard(page, '4012888888881881');
    expect(await cardInput(page).inputValue()).toBe('4012 8888 8888 1881');
    await add.click();
    await expect.poll(() => cardRows(page).count()).toBe(2);
    await page.getByText('Your card has been added.').waitFor();
    expect(await cardInput(page).inputValue()).toBe('');
    await saveScreenshot(page, 'cards-firstbank-added');
    await expectNoAxeViolations(page, 'cards: card-added status message');

    // SPEC §5: a duplicate of a listed number, pasted with dashes: the gateway's CARD_DUPLICATE says the card is already there.
    await pasteCard(page, '4111-1111-1111-1111');
    expect(await cardInput(page).inputValue()).toBe('4111 1111 1111 1111');
    await add.click();
    await page.getByRole('alert').filter({ hasText: 'This card is already on your account.' }).waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'A valid FirstBank card is required' }).count()).toBe(0);
    expect(await cardRows(page).count()).toBe(2);
    await saveScreenshot(page, 'cards-firstbank-duplicate');
    await expectNoAxeViolations(page, 'cards: capture block with an error');
    // The error clears on input.
    await pasteCard(page, '4242420000004242');
    expect(await page.getByRole('alert').filter({ hasText: 'This card is already on your account.' }).count()).toBe(0);
    await cardInput(page).fill('');
    // ADR 0011 "One account per card number on a site": daniel.brooks holds 4242 4242 4242 4242 on firstbank.
    await pasteCard(page, '4242424242424242');
    await add.click();
    await page.getByRole('alert').filter({ hasText: "This card can't be added to your account. If it's yours, contact us" }).waitFor();
    expect(await cardRows(page).count()).toBe(2);
    await cardInput(page).fill('');
    await pasteCard(page, '4242420000004242');
    expect(await cardInput(page).inputValue()).toBe('4242 4200 0000 4242');
    await add.click();
    await expect.poll(() => cardRows(page).count()).toBe(3);

    // fixtures/bin-ranges.json: 444433 is eligible on harbourbank only.
    await typeCard(page, '4444333322221111');
    await add.click();
    await page.getByRole('alert').filter({ hasText: 'A valid FirstBank card is required' }).waitFor();
    expect(await cardRows(page).count()).toBe(3);
    await saveScreenshot(page, 'cards-firstbank-ineligible');
    // axe runs under the app's strict CSP without tripping it (no inline script, no eval).
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('keyboard only: the menu, set as default, the cannot-delete-default modal and the remove modal', async () => {
    const { context, page, cspViolations } = await signedInPage('emily.carter@example.com', 'firstbank', 'en_us');
    await expect.poll(() => cardRows(page).count()).toBe(3);
    // From the card input, Shift+Tab reaches the last card's menu button.
    await cardInput(page).focus();
    await page.keyboard.press('Shift+Tab');
    const lastMenu = page.getByRole('button', { name: 'More actions for the card ending in 4242' });
    expect(await lastMenu.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    await saveScreenshot(page, 'cards-firstbank-menu');
    await expectNoAxeViolations(page, 'cards: actions menu open');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const setDefault = page.getByRole('dialog', { name: 'Set as default card' });
    await setDefault.waitFor();
    expect(await setDefault.textContent()).toContain('XXXX XXXX XXXX 4242');
    expect(await page.evaluate(() => document.body.classList.contains('modal-open'))).toBe(true);
    await saveScreenshot(page, 'cards-firstbank-set-default-modal');
    await expectNoAxeViolations(page, 'cards: set-as-default modal');
    // Close → Cancel → Set as default; Tab past the last wraps to the first (the focus trap).
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Close');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await setDefault.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('.card-row--default .card-row__number').textContent()).toContain('4242');
    expect(await lastMenu.evaluate((element) => element === document.activeElement)).toBe(true);

    // The default card (now 4242): Remove opens "can't remove your default card", Escape closes it.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    const cannot = page.getByRole('dialog', { name: "You can't remove your default card" });
    await cannot.waitFor();
    await saveScreenshot(page, 'cards-firstbank-cannot-remove-default');
    await expectNoAxeViolations(page, "cards: can't-remove-default modal");
    await page.keyboard.press('Escape');
    await cannot.waitFor({ state: 'detached' });
    expect(await lastMenu.evaluate((element) => element === document.activeElement)).toBe(true);

    // The first card (1111): Remove opens the remove modal with the masked card; Cancel keeps it, Remove removes it.
    const firstMenu = page.getByRole('button', { name: 'More actions for the card ending in 1111' });
    await firstMenu.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    const remove = page.getByRole('dialog', { name: 'Remove card' });
    await remove.waitFor();
    expect(await remove.textContent()).toContain('XXXX XXXX XXXX 1111');
    await saveScreenshot(page, 'cards-firstbank-remove-modal');
    await expectNoAxeViolations(page, 'cards: remove modal');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await remove.waitFor({ state: 'detached' });
    expect(await cardRows(page).count()).toBe(3);
    await firstMenu.click();
    await page.getByRole('menuitem', { name: 'Remove' }).click();
    await remove.getByRole('button', { name: 'Remove card' }).click();
    await expect.poll(() => cardRows(page).count()).toBe(2);
    await page.getByText('Your card has been removed.').waitFor();
    expect(await cardNumbers(page).allTextContents()).not.toContain('•••• XXXX XXXX XXXX 1111');
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('a click outside closes the menu', async () => {
    const { context, page } = await signedInPage('emily.carter@example.com', 'firstbank', 'en_us');
    await page.getByRole('button', { name: 'More actions for the card ending in 1881' }).click();
    await page.getByRole('menu').waitFor();
    await page.locator('h1').click();
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await context.close();
  });

  it('keyboard only: Space opens the menu, arrows wrap, Home/End, Escape and Tab close it; the modal wraps both ways; focus always shows', async () => {
    const { context, page } = await signedInPage('emily.carter@example.com', 'firstbank', 'en_us');
    await expect.poll(() => cardRows(page).count()).toBe(2);
    const menuButton = page.getByRole('button', { name: 'More actions for the card ending in 1881' });
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');
    // WCAG 2.4.7: the focused control draws the 3px focus outline (cards.css :focus-visible).
    const expectFocusRing = async () =>
      expect(
        await page.evaluate(() => {
          const style = document.activeElement === null ? null : getComputedStyle(document.activeElement);
          return style === null ? '' : `${style.outlineStyle} ${style.outlineWidth}`;
        }),
      ).toBe('solid 3px');

    await cardInput(page).focus();
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('More actions for the card ending in 1881');
    await expectFocusRing();

    // Space opens it with the first item focused; the arrows wrap round; Home and End jump.
    await page.keyboard.press('Space');
    const menu = page.getByRole('menu', { name: 'More actions for the card ending in 1881' });
    await menu.waitFor();
    const items = await menu.getByRole('menuitem').allTextContents();
    expect(items).toEqual(['Remove', 'Set as default']);
    expect(await focused()).toBe('Remove');
    await expectFocusRing();
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe('Set as default');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Remove');
    await page.keyboard.press('End');
    expect(await focused()).toBe('Set as default');
    await page.keyboard.press('Home');
    expect(await focused()).toBe('Remove');

    // Escape closes it, focus back on its button.
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await menuButton.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await menuButton.getAttribute('aria-expanded')).toBe('false');

    // Tab leaves an open menu for the next control (the card input), closing it.
    await page.keyboard.press('Enter');
    await menu.waitFor();
    await page.keyboard.press('Tab');
    await menu.waitFor({ state: 'detached' });
    expect(await cardInput(page).evaluate((element) => element === document.activeElement)).toBe(true);

    // Space chooses an item; in the modal Shift+Tab from the first control wraps to the last, Tab wraps back.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    const dialog = page.getByRole('dialog', { name: 'Set as default card' });
    await dialog.waitFor();
    expect(await focused()).toBe('Close');
    await expectFocusRing();
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('Set as default');
    await expectFocusRing();
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Close');
    // Space on Cancel closes it without a change, focus back on the card's menu button.
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Cancel');
    await page.keyboard.press('Space');
    await dialog.waitFor({ state: 'detached' });
    expect(await menuButton.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await page.locator('.card-row--default .card-row__number').textContent()).toContain('4242');
    await context.close();
  });

  it('the profile shows the read-only list with a cashback badge per card', async () => {
    const { context, page } = await signedInPage('emily.carter@example.com', 'firstbank', 'en_us', 'profile');
    const list = page.getByRole('list', { name: 'Your cards' });
    await list.waitFor();
    await expect.poll(() => list.locator('.card-row__number').allTextContents()).toEqual(['XXXX XXXX XXXX 4242', 'XXXX XXXX XXXX 1881']);
    expect(await list.locator('.card-badge').count()).toBe(2);
    await saveScreenshot(page, 'cards-firstbank-profile-read-only');
    await expectNoAxeViolations(page, 'profile: read-only card list');
    await page.getByRole('link', { name: 'Add or manage cards' }).click();
    await page.waitForURL(/\/edit-pan$/);
    await context.close();
  });
});

describe('right to left (ar_qa content on firstbank)', () => {
  it('the managed list, its menu and the set-as-default modal mirror; the number stays left to right', async () => {
    const { context, page } = await signedInPage('emily.carter@example.com', 'firstbank', 'ar_qa');
    await expect.poll(() => cardRows(page).count()).toBe(2);
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await cardNumbers(page).first().getAttribute('dir')).toBe('ltr');
    await saveScreenshot(page, 'cards-rtl-managed-list');
    await expectNoAxeViolations(page, 'cards (ar_qa, right to left): managed list');
    await page.getByRole('button', { name: 'إجراءات أخرى للبطاقة المنتهية بـ 1881' }).click();
    await saveScreenshot(page, 'cards-rtl-menu');
    await expectNoAxeViolations(page, 'cards (ar_qa, right to left): menu open');
    await page.getByRole('menuitem', { name: 'تعيين كافتراضية' }).click();
    const dialog = page.getByRole('dialog', { name: 'تعيين كبطاقة افتراضية' });
    expect(await dialog.textContent()).toContain('XXXX XXXX XXXX 1881');
    await saveScreenshot(page, 'cards-rtl-set-default-modal');
    await expectNoAxeViolations(page, 'cards (ar_qa, right to left): set-as-default modal');
    await dialog.getByRole('button', { name: 'إلغاء' }).click();
    await context.close();
  });
});

describe('an injected server failure for each card call (firstbank, casey.park)', () => {
  it("validation, enrolment, set default and remove: each §8 text, with the gateway's X-CID", async () => {
    const { context, page } = await signedInPage('casey.park@example.com', 'firstbank', 'en_us');
    // Numbers no other firstbank account holds (ADR 0011): emily added 4012 8888 8888 1881 above, daniel holds 4242 4242 4242 4242.
    const add = page.getByRole('button', { name: 'Add card' });
    await cardInput(page).waitFor();

    // A failed eligibility check counts as ineligible (SPEC §5).
    await failNext(context, 'POST', 'user-attribute/user/assets/validation', 503);
    await typeCard(page, '4012880000051881');
    await add.click();
    await page.getByRole('alert').filter({ hasText: 'A valid FirstBank card is required' }).waitFor();

    // Enrolment failure: the card-added banner with the X-CID; the number stays.
    await failNext(context, 'POST', 'user-attribute/user/assets', 503);
    const enrolCid = correlationIdOf(page, 'POST', /\/user-attribute\/user\/assets$/);
    await typeCard(page, '1');
    await cardInput(page).fill('');
    await typeCard(page, '4012880000051881');
    await add.click();
    const cid = await enrolCid;
    expect(cid).not.toBe('');
    await page.getByText(`We couldn't add your card. X-CID: ${cid}`).waitFor();
    expect(await cardInput(page).inputValue()).toBe('4012 8800 0005 1881');
    await saveScreenshot(page, 'cards-failure-enrol');
    await expectNoAxeViolations(page, 'cards: enrolment failure status message');

    await add.click();
    await expect.poll(() => cardRows(page).count()).toBe(1);
    await typeCard(page, '4242420000184242');
    await add.click();
    await expect.poll(() => cardRows(page).count()).toBe(2);

    await failNext(context, 'POST', 'user-attribute/user/assets/*', 503);
    const defaultCid = correlationIdOf(page, 'POST', /\/user-attribute\/user\/assets\/[^/]+$/);
    await page.getByRole('button', { name: 'More actions for the card ending in 4242' }).click();
    await page.getByRole('menuitem', { name: 'Set as default' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Set as default' }).click();
    await page.getByText(`Set default card failed. X-CID: ${await defaultCid}`).waitFor();
    await saveScreenshot(page, 'cards-failure-set-default');

    await failNext(context, 'POST', 'user-attribute/user/assets/*/remove-asset', 503);
    const removeCid = correlationIdOf(page, 'POST', /\/remove-asset$/);
    await page.getByRole('button', { name: 'More actions for the card ending in 4242' }).click();
    await page.getByRole('menuitem', { name: 'Remove' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove card' }).click();
    await page.getByText(`We couldn't remove your card. X-CID: ${await removeCid}`).waitFor();
    expect(await cardRows(page).count()).toBe(2);
    await saveScreenshot(page, 'cards-failure-remove');
    await context.close();
  });
});

describe('northbank (limit 2, fr_ca)', () => {
  it('with two cards the add form is hidden', async () => {
    const { context, page } = await signedInPage('sophie.tremblay@example.com', 'northbank', 'fr_ca');
    await expect.poll(() => cardRows(page).count()).toBe(2);
    expect(await cardInput(page).count()).toBe(0);
    await page.getByText('Vous avez ajouté le nombre maximal de cartes permis par ce programme (2).').waitFor();
    await saveScreenshot(page, 'cards-northbank-limit-reached');
    await expectNoAxeViolations(page, 'cards: limit reached');
    await context.close();
  });
});

describe('eurobank (unbounded limit, de_de)', () => {
  it('adds cards, with a loading overlay while enrolling, and keeps the add form', async () => {
    const { context, page } = await signedInPage('lukas.schneider@example.com', 'eurobank', 'de_de');
    await expect.poll(() => cardRows(page).count()).toBe(1);
    // SPEC §2 loading overlay during enrolment: the enrolment call is held until the overlay is seen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/user-attribute/user/assets', async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    await typeCard(page, '4111111111111111');
    await page.getByRole('button', { name: 'Karte hinzufügen' }).click();
    const overlay = page.getByRole('progressbar', { name: 'Ihre Karte wird hinzugefügt…' });
    await overlay.waitFor();
    await saveScreenshot(page, 'cards-eurobank-enrolling-overlay');
    await expectNoAxeViolations(page, 'cards: enrolling overlay');
    release();
    await overlay.waitFor({ state: 'detached' });
    await expect.poll(() => cardRows(page).count()).toBe(2);
    for (const [index, number] of ['4012888888881881', '4242424242424242'].entries()) {
      await typeCard(page, number);
      await page.getByRole('button', { name: 'Karte hinzufügen' }).click();
      await expect.poll(() => cardRows(page).count()).toBe(index + 3);
    }
    expect(await cardInput(page).count()).toBe(1);
    await page.getByText('Ihre Karte wurde hinzugefügt.').waitFor();
    await saveScreenshot(page, 'cards-eurobank-unbounded');
    await context.close();
  });
});

describe('harbourbank (card updates off, zh_hk): the edit/delete form', () => {
  it('lists the cards with a delete link and the add form; no menu', async () => {
    const { context, page } = await signedInPage('taiman.chan@example.com', 'harbourbank', 'zh_hk');
    await expect.poll(() => cardRows(page).count()).toBe(1);
    expect(await page.locator('.card-menu__button').count()).toBe(0);
    // The demo card (444433…) is the site-specific eligible range of fixtures/bin-ranges.json: already on the account now.
    await typeCard(page, '4444333322221111');
    await page.getByRole('button', { name: '新增卡' }).click();
    await page.getByRole('alert').filter({ hasText: '此卡已在你的帳戶中。' }).waitFor();
    await cardInput(page).fill('');
    await typeCard(page, '4012888888881881');
    await page.getByRole('button', { name: '新增卡' }).click();
    await expect.poll(() => cardRows(page).count()).toBe(2);
    await page.getByRole('button', { name: '移除尾號 1881 的卡' }).click();
    const dialog = page.getByRole('dialog', { name: '移除卡' });
    await dialog.waitFor();
    await saveScreenshot(page, 'cards-harbourbank-edit-delete-remove');
    await expectNoAxeViolations(page, 'cards: edit/delete form, remove modal');
    await dialog.getByRole('button', { name: '移除卡' }).click();
    await expect.poll(() => cardRows(page).count()).toBe(1);
    await saveScreenshot(page, 'cards-harbourbank-edit-delete');
    await expectNoAxeViolations(page, 'cards: edit/delete form');
    await context.close();
  });
});

describe('sabana (cards not optional, es_co): last-card refusal', () => {
  it("removing the only card shows the configured required message in that card's dialog and keeps the card", async () => {
    const { context, page } = await signedInPage('valentina.gomez@example.com', 'sabana', 'es_co');
    await expect.poll(() => cardRows(page).count()).toBe(1);
    await page.locator('.card-menu__button').click();
    await page.getByRole('menuitem', { name: 'Eliminar' }).click();
    const dialog = page.getByRole('dialog', { name: 'No puedes eliminar tu única tarjeta' });
    await dialog.filter({ hasText: 'Debes tener al menos una tarjeta inscrita.' }).waitFor();
    // Not in the add form below: the refusal is about the card, and is said where that card was asked about.
    expect(await page.getByRole('alert').filter({ hasText: 'Debes tener al menos una tarjeta inscrita.' }).count()).toBe(0);
    expect(await cardRows(page).count()).toBe(1);
    await saveScreenshot(page, 'cards-sabana-last-card');
    await expectNoAxeViolations(page, 'cards: last-card refusal');
    await dialog.getByRole('button', { name: 'Cerrar' }).last().click();
    expect(await cardRows(page).count()).toBe(1);
    await context.close();
  });
});

describe('vppcards (vpp tenant): the standalone form', () => {
  it('needs the terms; after adding, /profile with the card-added banner', async () => {
    const { context, page } = await signedInPage('oliver.bennett@example.com', 'vppcards', 'en_gb');
    const submit = page.getByRole('button', { name: 'Add card' });
    await cardInput(page).waitFor();
    await pasteCard(page, '4012888888881881');
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('I agree to the Terms and Conditions and confirm this card is mine.').check();
    await saveScreenshot(page, 'cards-vppcards-standalone');
    await expectNoAxeViolations(page, 'cards: standalone form');
    await submit.click();
    await page.waitForURL(/\/vppcards\/en_gb\/account\/profile$/);
    await page.getByText('Your card has been added.').waitFor();
    await saveScreenshot(page, 'cards-vppcards-added-banner');
    await expectNoAxeViolations(page, 'profile: card-added banner after the standalone form');
    await context.close();
  });

  it('an enrolment failure goes to /profile with the error banner and its X-CID; cancel goes to /profile', async () => {
    const { context, page } = await signedInPage('oliver.bennett@example.com', 'vppcards', 'en_gb');
    await cardInput(page).waitFor();
    await failNext(context, 'POST', 'user-attribute/user/assets', 503);
    const cid = correlationIdOf(page, 'POST', /\/user-attribute\/user\/assets$/);
    await typeCard(page, '4242424242424242');
    await page.getByLabel('I agree to the Terms and Conditions and confirm this card is mine.').check();
    await page.getByRole('button', { name: 'Add card' }).click();
    await page.waitForURL(/\/account\/profile$/);
    await page.getByText(`We couldn't add your card. X-CID: ${await cid}`).waitFor();
    await saveScreenshot(page, 'cards-vppcards-failure-banner');
    await page.goto(`${portal.baseUrl}/vppcards/en_gb/account/edit-pan`);
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(/\/account\/profile$/);
    await context.close();
  });
});
