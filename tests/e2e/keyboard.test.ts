import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { readSiteFixture } from '../support/site-fixtures';
import { expectNoAxeViolations } from './support/accessibility';
import { collectCspViolations, saveScreenshot } from './support/browser';
import { endsOn } from './support/navigation';
import { browserTest, type PortalProcess } from './support/browser-test';
import { JOURNEY_DOB, textValueFor } from './support/site-journey/field-values';
import { contentText, journeySiteOf } from './support/site-journey/journey-site';
import { eligibleTestCards, groupedCard } from './support/site-journey/test-cards';
import { signInForTest } from './support/test-session';

/**
 * Keyboard-only walks in Chromium against the real gateway. Registration on the
 * richest US site (firstbank: masks, national id, bin, dob parts, privacy policy and a card at
 * sign-up) and card management (add, set as default, remove with its modal) with Tab, Shift+Tab,
 * typing, Space, Enter, the arrows and Escape only; never a click. Every control that takes the
 * focus shows it (WCAG 2.4.7: a non-none outline or box-shadow), and a submit with an error moves
 * the focus to the field and ties the message to it (aria-invalid + aria-describedby, WCAG 3.3.1).
 */
const SITE = journeySiteOf(readSiteFixture('firstbank'));
const run = Date.now().toString(36);

let portal: PortalProcess;
let browser: Browser;

browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
  portal = filePortal;
  browser = fileBrowser;
});

const url = (route: string) => `${portal.baseUrl}/${SITE.siteId}/${SITE.locale}/account/${route}`;

/** What the focused element draws: its tag and id or name, and whether an outline or a shadow shows the focus. */
async function focusState(page: Page): Promise<{ element: string; visible: boolean }> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (element === null || element === document.body) return { element: 'body', visible: false };
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow !== 'none' && style.boxShadow !== '';
    return {
      element: `${element.tagName.toLowerCase()}#${element.id || element.getAttribute('name') || element.getAttribute('aria-label') || element.textContent?.trim().slice(0, 30)}`,
      visible: outline || shadow,
    };
  });
}

async function expectVisibleFocus(page: Page): Promise<void> {
  const state = await focusState(page);
  expect(state.visible, `focus is not visible on ${state.element}`).toBe(true);
}

const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement).catch(() => false);

/**
 * Presses Tab (or Shift+Tab) until `target` has the focus, asserting at every stop that the focus
 * shows; fails after `limit` presses, so a control the keyboard cannot reach fails the test.
 */
async function tabTo(page: Page, target: Locator, { backwards = false, limit = 40 } = {}): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    if (await isFocused(target)) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    if ((await focusState(page)).element !== 'body') await expectVisibleFocus(page);
  }
  if (!(await isFocused(target))) throw new Error(`Tab never reached ${target.toString()}; the focus is on ${(await focusState(page)).element}`);
}

describe('keyboard only (WCAG 2.1.1, 2.4.7, 3.3.1)', () => {
  it(`firstbank: registers with Tab, typing, Space and Enter only; a submit with an error focuses the field and names the error`, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cspViolations = collectCspViolations(page);
    await page.goto(url('registration'));
    await endsOn(page, 'registration');
    await page.locator('.site-form').waitFor();

    const email = `keyboard.${run}@example.com`;
    const { schema, uiSchema } = SITE.registration;
    const order = uiSchema['ui:order'] as string[];
    // A wrong e-mail first, to see the error announced; everything else valid, in screen order.
    for (const key of order) {
      const field = schema.properties![key]!;
      if (key === 'dob') {
        for (const [part, value] of Object.entries(JOURNEY_DOB)) {
          const own = page.locator(`#root_dob_${part}`);
          await tabTo(page, (await own.count()) > 0 ? own : page.locator('#root_dob'));
          await page.keyboard.type(value);
        }
        continue;
      }
      if (key === 'pp') {
        await tabTo(page, page.locator('#root_pp'));
        await page.keyboard.press('Space');
        expect(await page.locator('#root_pp').isChecked()).toBe(true);
        continue;
      }
      const value = textValueFor(key, field, SITE.siteId, key === 'email' ? 'not-an-address' : email, { first: 'Kay', last: 'Board' });
      // Optional selects and groups (title, opt-ins) are left as they are.
      if (value === null) continue;
      await tabTo(page, page.locator(`#root_${key}`));
      await page.keyboard.type(value.typed);
      expect(await page.locator(`#root_${key}`).inputValue()).toBe(value.shown);
    }
    const submit = page.locator('.site-form button[type="submit"]').first();
    await tabTo(page, submit);
    await page.keyboard.press('Enter');

    // The error: the focus moves to the field, which is marked invalid and described by its message.
    const emailField = page.locator('#root_email');
    await expect.poll(() => isFocused(emailField)).toBe(true);
    await expectVisibleFocus(page);
    expect(await emailField.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await emailField.getAttribute('aria-describedby')) ?? '';
    expect(describedBy.split(' ')).toContain('root_email__error');
    expect(await page.locator('#root_email__error').textContent()).toBe(contentText('form', 'error'));
    await saveScreenshot(page, 'keyboard-registration-error');
    await expectNoAxeViolations(page, 'keyboard: registration with an error');

    // Corrected from the keyboard: select all, type the right address, on to submit.
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(email);
    await tabTo(page, submit);
    await page.keyboard.press('Enter');
    await endsOn(page, 'add-pan');

    // add-pan: the card typed into the capture block, added with Enter, then the account created.
    const [card] = eligibleTestCards(SITE.siteId, 1);
    await tabTo(page, page.locator('input[name="pan"]'));
    await page.keyboard.type(card!);
    expect(await page.locator('input[name="pan"]').inputValue()).toBe(groupedCard(card!));
    await tabTo(page, page.locator('.capture-block__submit'));
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.card-rows .card-row__number').allTextContents()).toEqual([`XXXX XXXX XXXX ${card!.slice(-4)}`]);
    await tabTo(page, page.getByRole('button', { name: contentText('account', 'addCard.submit'), exact: true }));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: contentText('account', 'checkEmail.title') }).waitFor();
    await saveScreenshot(page, 'keyboard-registration-done');
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('firstbank: adds a card, sets it as default and removes another with the keyboard; Escape closes the modal and the focus returns to its trigger', async () => {
    const context = await browser.newContext();
    await signInForTest(context, portal.baseUrl, 'emily.carter@example.com', SITE.siteId);
    const page = await context.newPage();
    const cspViolations = collectCspViolations(page);
    await page.goto(url('edit-pan'));
    await endsOn(page, 'edit-pan');
    const rows = page.locator('.card-rows > li');
    const input = page.locator('input[name="pan"]');
    await input.waitFor();
    const before = await rows.count();

    // Add: type the number, Tab to the add button, Enter.
    const [, card] = eligibleTestCards(SITE.siteId, 2);
    const lastFour = card!.slice(-4);
    await tabTo(page, input);
    await page.keyboard.type(card!);
    await tabTo(page, page.locator('.capture-block__submit'));
    await page.keyboard.press('Enter');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(before + 1);
    await page.getByText(SITE.cards.texts.panAddSuccessMessage ?? contentText('cards', 'panAdded')).waitFor();

    // Set as default: back to the new card's menu, Enter opens it, the arrow reaches the item, Enter chooses.
    const newMenu = page.getByRole('button', { name: contentText('cards', 'moreActionsFor', { lastFour }) });
    await tabTo(page, newMenu, { backwards: true });
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    await expectVisibleFocus(page);
    await page.keyboard.press('ArrowDown');
    expect((await focusState(page)).element).toContain(contentText('cards', 'setAsDefault'));
    await expectVisibleFocus(page);
    await page.keyboard.press('Enter');
    const setDefault = page.getByRole('dialog', { name: contentText('cards', 'modal.setDefault.title') });
    await setDefault.waitFor();
    await expectVisibleFocus(page);
    await tabTo(page, setDefault.getByRole('button', { name: contentText('cards', 'modal.setDefault.confirm') }), { limit: 4 });
    await page.keyboard.press('Enter');
    await setDefault.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('.card-row--default .card-row__number').textContent()).toContain(lastFour);
    expect(await isFocused(newMenu)).toBe(true);

    // Remove another card: its menu, Remove, the modal; Escape closes it with the focus back on the menu button.
    const otherNumber = (await page.locator('.card-row:not(.card-row--default) .card-row__number').first().textContent()) ?? '';
    const otherMenu = page.getByRole('button', { name: contentText('cards', 'moreActionsFor', { lastFour: otherNumber.slice(-4) }) });
    await tabTo(page, otherMenu, { backwards: true });
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    expect((await focusState(page)).element).toContain(contentText('cards', 'remove'));
    await page.keyboard.press('Enter');
    const remove = page.getByRole('dialog', { name: contentText('cards', 'modal.remove.title') });
    await remove.waitFor();
    await expectVisibleFocus(page);
    await saveScreenshot(page, 'keyboard-cards-remove-modal');
    await page.keyboard.press('Escape');
    await remove.waitFor({ state: 'detached' });
    expect(await isFocused(otherMenu)).toBe(true);
    await expectVisibleFocus(page);
    expect(await rows.count()).toBe(before + 1);

    // Again, and this time Tab to the confirm button inside the trapped modal and press Enter.
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    await page.keyboard.press('Enter');
    await remove.waitFor();
    await tabTo(page, remove.getByRole('button', { name: contentText('cards', 'modal.remove.confirm') }), { limit: 4 });
    await page.keyboard.press('Enter');
    await expect.poll(() => rows.count()).toBe(before);
    await page.getByText(SITE.cards.texts.panDeleteSuccessMessage ?? contentText('cards', 'panDeleted')).waitFor();
    expect(await page.locator('.card-rows .card-row__number').allTextContents()).not.toContain(otherNumber);
    await saveScreenshot(page, 'keyboard-cards-done');
    await expectNoAxeViolations(page, 'keyboard: cards after removal');
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('firstbank: the account menu opens with Enter, its links follow in Tab order, Escape closes it and gives the focus back, and Sign out works by keyboard (SPEC §2 frame)', async () => {
    const context = await browser.newContext();
    await signInForTest(context, portal.baseUrl, 'emily.carter@example.com', SITE.siteId);
    const page = await context.newPage();
    await page.goto(url('profile'));
    await endsOn(page, 'profile');
    const menu = page.getByRole('navigation', { name: contentText('common', 'accountMenu.label'), exact: true });
    const button = menu.getByRole('button', { name: 'Emily Carter' });
    await tabTo(page, button, { limit: 5 });
    await page.keyboard.press('Enter');
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    await tabTo(page, menu.getByRole('link', { name: contentText('common', 'title.profile'), exact: true }), { limit: 1 });
    await page.keyboard.press('Escape');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await isFocused(button)).toBe(true);
    await page.keyboard.press('Enter');
    const signOut = menu.getByRole('link', { name: contentText('common', 'title.logout'), exact: true });
    await tabTo(page, signOut, { limit: 10 });
    await page.keyboard.press('Enter');
    await endsOn(page, 'login-form');
    await context.close();
  });
});
