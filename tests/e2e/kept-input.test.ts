import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import enUs from '../../fixtures/content/en_us.json';
import ptBr from '../../fixtures/content/pt_br.json';
import { expectNoAxeViolations } from './support/accessibility';
import { activateWithPassword, activationLink } from './support/account-helpers';
import { saveScreenshot } from './support/browser';
import { endsOn, routeOf } from './support/navigation';
import { browserTest, type PortalProcess } from './support/browser-test';
import { newPasscode, outboxIds } from './support/sign-in-helpers';

/**
 * What the person gave is kept, in Chromium against the real gateway and database: the marketing
 * choices made at registration are the ones the profile shows and saves (SPEC §3, one stored shape);
 * a reload on add-pan keeps every non-secret registration field (SPEC §2) and never puts a secret in
 * session storage; a profile change saved after another tab signed out is kept, said, and back on the
 * form after signing in again (SPEC §2 edit-profile, §8).
 */
const CONTENT = enUs as Record<string, Record<string, string>>;
function t(group: string, key: string): string {
  const value = CONTENT[group]?.[key];
  if (value === undefined) throw new Error(`no content en_us ${group}.${key}`);
  return value;
}

/** A unique address per run, so a reused DATA_DIR never meets an old account. */
const run = Date.now().toString(36);
const PASSWORD = 'Sunny-Day-42';
/** fixtures/demo-users.json: a eurobank holder who signs in without a passcode (login_otp none). */
const LUKAS = { email: 'lukas.schneider@example.com', password: 'Eurobank&Sicher9' };

describe('what the person gave is kept (SPEC §2, §3, §8)', () => {
  let portal: PortalProcess;
  let browser: Browser;

  browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
    portal = filePortal;
    browser = fileBrowser;
  });

  const url = (siteId: string, route: string) => `${portal.baseUrl}/${siteId}/en_us/account/${route}`;
  const submitForm = (page: Page) => page.locator('.site-form button[type="submit"]').first().click();

  async function signIn(page: Page, siteId: string, email: string, password: string): Promise<void> {
    if (routeOf(page) !== 'login-form') await page.goto(url(siteId, 'login-form'));
    await page.locator('#root_username').fill(email);
    await page.locator('#root_password').fill(password);
    await submitForm(page);
  }

  it('eurobank: opt-ins ticked at registration are ticked on the profile after activation, and a save keeps them after a reload', async () => {
    const context = await browser.newContext();
    const email = `optins.${run}@example.com`;
    const seen = await outboxIds(context.request, portal.baseUrl, email);
    const page = await context.newPage();
    await page.goto(url('eurobank', 'registration'));
    await page.locator('#root_first_name').fill('Mara');
    await page.locator('#root_last_name').fill('Lind');
    await page.locator('#root_email').fill(email);
    await page.locator('#root_password').fill(PASSWORD);
    await page.locator('#root_confirm_password').fill(PASSWORD);
    await page.locator('#root_bin').fill('41111111');
    await page.getByLabel(t('optins', 'email'), { exact: true }).check();
    await submitForm(page);
    await page.getByText(t('account', 'checkEmail.title')).first().waitFor();

    await activateWithPassword(page, await activationLink(context.request, portal.baseUrl, email, seen), PASSWORD);
    await page.getByText(t('account', 'activate.success')).waitFor();
    await signIn(page, 'eurobank', email, PASSWORD);
    await endsOn(page, 'profile');

    const box = (key: string) => page.locator('.optins').getByLabel(t('optins', key), { exact: true });
    await box('email').waitFor();
    // The choice made at registration, as the person made it.
    expect(await box('email').isChecked()).toBe(true);
    expect(await box('online').isChecked()).toBe(false);
    await box('online').check();
    await page.getByRole('button', { name: t('optins', 'save') }).click();
    await page.getByText(t('optins', 'saved')).waitFor();
    await page.reload();
    await box('email').waitFor();
    expect(await box('email').isChecked()).toBe(true);
    expect(await box('online').isChecked()).toBe(true);
    await context.close();
  });

  it('firstbank: a reload on add-pan returns to the registration form with every non-secret field kept and says why the password is empty', async () => {
    const context = await browser.newContext();
    const email = `reload.${run}@example.com`;
    const page = await context.newPage();
    await page.goto(url('firstbank', 'registration'));
    await page.locator('#root_first_name').fill('Alex');
    await page.locator('#root_last_name').fill('Morgan');
    await page.locator('#root_email').fill(email);
    await page.locator('#root_password').fill(PASSWORD);
    await page.locator('#root_confirm_password').fill(PASSWORD);
    await page.locator('#root_dob').fill('04');
    await page.locator('#root_dob_dd').fill('12');
    await page.locator('#root_dob_yyyy').fill('1988');
    await page.locator('#root_nationalId').fill('501234567');
    await page.locator('#root_ninedigitbin').fill('412345678');
    await page.locator('#root_phone').fill('2125550123');
    await page.getByLabel(t('optins', 'cashback'), { exact: true }).check();
    await page.locator('#root_pp').check();
    await submitForm(page);
    await endsOn(page, 'add-pan');

    await page.reload();
    // The password lived in memory only, so the registration cannot be sent from add-pan: back to the form.
    await endsOn(page, 'registration');
    await page
      .getByRole('status')
      .filter({ hasText: t('account', 'registration.restored') })
      .waitFor();
    expect(await page.locator('#root_first_name').inputValue()).toBe('Alex');
    expect(await page.locator('#root_last_name').inputValue()).toBe('Morgan');
    expect(await page.locator('#root_email').inputValue()).toBe(email);
    expect(await page.locator('#root_phone').inputValue()).toBe('(212) 555-0123');
    expect([
      await page.locator('#root_dob').inputValue(),
      await page.locator('#root_dob_dd').inputValue(),
      await page.locator('#root_dob_yyyy').inputValue(),
    ]).toEqual(['04', '12', '1988']);
    expect(await page.getByLabel(t('optins', 'cashback'), { exact: true }).isChecked()).toBe(true);
    expect(await page.locator('#root_pp').isChecked()).toBe(true);
    // Secrets are not kept: not on the form, not in session storage.
    for (const secret of ['#root_password', '#root_confirm_password', '#root_nationalId', '#root_ninedigitbin'])
      expect(await page.locator(secret).inputValue()).toBe('');
    const stored = await page.evaluate(() => JSON.stringify({ ...window.sessionStorage }));
    for (const secret of [PASSWORD, '501234567', '501-23-4567', '412345678']) expect(stored).not.toContain(secret);
    await saveScreenshot(page, 'registration-restored-after-reload-firstbank');
    await expectNoAxeViolations(page, 'registration restored after a reload on add-pan (firstbank)');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await saveScreenshot(page, 'registration-restored-after-reload-firstbank-390');

    // The person types the secrets again and finishes; the kept fields are gone once the registration is sent.
    await page.locator('#root_password').fill(PASSWORD);
    await page.locator('#root_confirm_password').fill(PASSWORD);
    await page.locator('#root_nationalId').fill('501234567');
    await page.locator('#root_ninedigitbin').fill('412345678');
    await submitForm(page);
    await endsOn(page, 'add-pan');
    await page.getByRole('button', { name: t('account', 'addCard.submit'), exact: true }).click();
    await page.getByRole('heading', { name: t('account', 'checkEmail.title') }).waitFor();
    expect(await page.evaluate(() => window.sessionStorage.getItem('registration_draft'))).toBeNull();
    await context.close();
  });

  it('firstbank: leaving the registration steps drops the kept fields', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url('firstbank', 'registration'));
    await page.locator('#root_first_name').fill('Alex');
    await page.locator('#root_last_name').fill('Morgan');
    await page.locator('#root_email').fill(`leave.${run}@example.com`);
    await page.locator('#root_password').fill(PASSWORD);
    await page.locator('#root_confirm_password').fill(PASSWORD);
    await page.locator('#root_dob').fill('04');
    await page.locator('#root_dob_dd').fill('12');
    await page.locator('#root_dob_yyyy').fill('1988');
    await page.locator('#root_nationalId').fill('501234567');
    await page.locator('#root_ninedigitbin').fill('412345678');
    await page.locator('#root_pp').check();
    await submitForm(page);
    await endsOn(page, 'add-pan');
    await page.getByRole('link', { name: t('account', 'addCard.back') }).click();
    await endsOn(page, 'registration');
    expect(await page.evaluate(() => window.sessionStorage.getItem('registration_draft'))).not.toBeNull();
    await page.getByRole('link', { name: t('account', 'registration.signIn') }).click();
    await endsOn(page, 'login-form');
    expect(await page.evaluate(() => window.sessionStorage.getItem('registration_draft'))).toBeNull();
    await context.close();
  });

  it('eurobank: a profile change saved after another tab signed out is kept, said, and back on the form after signing in again', async () => {
    const context = await browser.newContext();
    const pageA = await context.newPage();
    await signIn(pageA, 'eurobank', LUKAS.email, LUKAS.password);
    await endsOn(pageA, 'profile');
    await pageA.goto(url('eurobank', 'edit-profile'));
    await pageA.locator('#root_last_name').waitFor();
    const storedLastName = await pageA.locator('#root_last_name').inputValue();

    const pageB = await context.newPage();
    await pageB.goto(url('eurobank', 'logout'));
    await endsOn(pageB, 'login-form');

    await pageA.locator('#root_last_name').fill('Kept-After-Sign-Out');
    await pageA.getByRole('button', { name: t('profile', 'edit.submit') }).click();
    await pageA
      .getByRole('alert')
      .filter({ hasText: t('profile', 'edit.sessionEnded') })
      .waitFor();
    // Nothing lost: the person is still on the form with what they typed.
    expect(routeOf(pageA)).toBe('edit-profile');
    expect(await pageA.locator('#root_last_name').inputValue()).toBe('Kept-After-Sign-Out');
    await saveScreenshot(pageA, 'edit-profile-session-ended-eurobank');
    await expectNoAxeViolations(pageA, 'edit profile after the session ended (eurobank)');
    // At phone width the message and its button stay inside the page (no sideways scrolling).
    await pageA.setViewportSize({ width: 390, height: 844 });
    expect(await pageA.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await saveScreenshot(pageA, 'edit-profile-session-ended-eurobank-390');

    await pageA.getByRole('button', { name: t('profile', 'edit.signInAgain') }).click();
    await endsOn(pageA, 'login-form');
    await signIn(pageA, 'eurobank', LUKAS.email, LUKAS.password);
    await endsOn(pageA, 'edit-profile');
    await pageA
      .getByRole('status')
      .filter({ hasText: t('profile', 'edit.restored') })
      .waitFor();
    expect(await pageA.locator('#root_last_name').inputValue()).toBe('Kept-After-Sign-Out');
    // Back on the form, not yet saved: the stored profile still has the old name until the person presses save.
    await pageB.goto(url('eurobank', 'profile'));
    await pageB.locator('.profile-summary__name').waitFor();
    expect(await pageB.locator('.profile-summary__name').textContent()).toContain(storedLastName);
    await pageA.getByRole('button', { name: t('profile', 'edit.submit') }).click();
    await endsOn(pageA, 'profile');
    await pageA.reload();
    await pageA.locator('.profile-summary__name').waitFor();
    expect(await pageA.locator('.profile-summary__name').textContent()).toContain('Kept-After-Sign-Out');
    expect(await pageA.evaluate(() => window.sessionStorage.getItem('profile_draft'))).toBeNull();
    await context.close();
  });

  it('bancosol (pt_br): a reload and Back/Forward on the recovery steps keep the step and the e-mail, never the code; the code already texted still works after asking again', async () => {
    // fixtures/demo-users.json: a bancosol holder with a phone, so the code can go by SMS (the step-by-step variant).
    const ana = { email: 'ana.souza@example.com', phone: '11987654321' };
    const pt = (group: string, key: string) => (ptBr as Record<string, Record<string, string>>)[group]![key]!;
    const bancosol = (route: string) => `${portal.baseUrl}/bancosol/pt_br/account/${route}`;
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const seen = await outboxIds(context.request, portal.baseUrl, ana.phone);
    await page.goto(bancosol('recovery'));
    await page.locator('#root_email').fill(ana.email);
    await submitForm(page);
    await endsOn(page, 'passcode-preference');
    await page.getByLabel(pt('account', 'preference.sms')).check();
    await page.getByRole('button', { name: pt('account', 'preference.submit') }).click();
    await endsOn(page, 'passcode');
    const texted = await newPasscode(context.request, portal.baseUrl, ana.phone, seen);

    await page.reload();
    await endsOn(page, 'passcode');
    await page.locator('#root_passcode').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(pt('common', 'title.passcode'));
    await saveScreenshot(page, 'kept-recovery-passcode-after-reload-bancosol');
    // Back to the choice and Forward again: still the passcode step.
    await page.goBack();
    await endsOn(page, 'passcode-preference');
    await page.goForward();
    await endsOn(page, 'passcode');
    await page.locator('#root_passcode').waitFor();

    // Asking again does not void the code already texted (ADR 0008 "Codes asked for again").
    const beforeSecond = await outboxIds(context.request, portal.baseUrl, ana.phone);
    await page.getByRole('link', { name: pt('account', 'recovery.newCode') }).click();
    await endsOn(page, 'passcode-preference');
    await page.getByLabel(pt('account', 'preference.sms')).check();
    await page.getByRole('button', { name: pt('account', 'preference.submit') }).click();
    await endsOn(page, 'passcode');
    await newPasscode(context.request, portal.baseUrl, ana.phone, beforeSecond);
    await page.locator('#root_passcode').fill(texted);
    await submitForm(page);
    await endsOn(page, 'reset-password');
    await page.locator('#root_password').waitFor();

    // The checked code is a secret: a reload here keeps the step and asks for the code again beside the new password, the e-mail kept.
    await page.reload();
    await endsOn(page, 'reset-password');
    await page.getByText(pt('account', 'reset.codeNotKept')).waitFor();
    const kept = await page.evaluate(() => window.sessionStorage.getItem('flow_steps') ?? '');
    expect(kept).toContain(ana.email);
    expect(kept).not.toContain(texted);
    await page.locator('#root_passcode').fill(texted);
    await page.locator('#root_password').fill('Nova-Senha-2026');
    await page.locator('#root_confirm_password').fill('Nova-Senha-2026');
    await submitForm(page);
    await endsOn(page, 'login-form');
    await page.getByText(pt('common', 'notice.passwordReset')).waitFor();
    // Recovery ended: nothing of it is kept.
    expect(await page.evaluate(() => window.sessionStorage.getItem('flow_steps'))).toBeNull();
    await context.close();
  });

  it('firstbank: a reload on the sign-in passcode step comes back to the password with the user name kept and says why; the code already mailed still signs in', async () => {
    const emily = { email: 'emily.carter@example.com', password: 'Firstbank#2025' };
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const seen = await outboxIds(context.request, portal.baseUrl, emily.email);
    await signIn(page, 'firstbank', emily.email, emily.password);
    await endsOn(page, 'login-otp');
    const mailed = await newPasscode(context.request, portal.baseUrl, emily.email, seen);

    await page.reload();
    // The step re-sends the password, which is never kept: back to it, the user name filled in, and why.
    await endsOn(page, 'login-form');
    await page
      .getByRole('status')
      .filter({ hasText: t('signIn', 'login.passcodeStepKept') })
      .waitFor();
    await expect.poll(() => page.locator('#root_username').inputValue()).toBe(emily.email);
    expect(await page.locator('#root_password').inputValue()).toBe('');
    const kept = await page.evaluate(() => window.sessionStorage.getItem('flow_steps') ?? '');
    expect(kept).not.toContain(emily.password);
    expect(kept).not.toContain(mailed);
    await saveScreenshot(page, 'kept-sign-in-after-reload-firstbank');

    await page.locator('#root_password').fill(emily.password);
    await submitForm(page);
    await endsOn(page, 'login-otp');
    await page.locator('#root_otp').fill(mailed);
    await submitForm(page);
    await endsOn(page, 'profile');
    expect(await page.evaluate(() => window.sessionStorage.getItem('flow_steps'))).toBeNull();
    await context.close();
  });
});
