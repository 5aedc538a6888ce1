import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { listSiteFixtures } from '../support/site-fixtures';
import { expectNoAxeViolations } from './support/accessibility';
import { saveScreenshot } from './support/browser';
import { browserTest, type PortalProcess } from './support/browser-test';
import { endsOn, routeOf } from './support/navigation';
import { newPasscode, outboxIds, totpCode } from './support/sign-in-helpers';
import { fillForm } from './support/site-journey/define-site-journey-matrix';
import { contentTextsIn, journeySiteOf } from './support/site-journey/journey-site';
import { eligibleTestCards, groupedCard } from './support/site-journey/test-cards';
import { signInForTest } from './support/test-session';

/**
 * Where a person stands in a flow, in Chromium at phone width against the real gateway: each step keeps its place
 * across a reload and Back/Forward the one way every flow does (ADR 0019 "Flow steps"), and what a step says fits
 * where the person is (the channel the code went by, a sign-out just made, a card just added).
 */
let portal: PortalProcess;
let browser: Browser;

browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
  portal = filePortal;
  browser = fileBrowser;
});

const PHONE = { width: 390, height: 844 };
const run = Date.now().toString(36);
const url = (siteId: string, locale: string, route: string) => `${portal.baseUrl}/${siteId}/${locale}/account/${route}`;
const submitForm = (page: Page) => page.locator('.site-form button[type="submit"]').first().click();

async function fitsPhoneWidth(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

describe('the steps of a flow are kept across a reload and Back/Forward (ADR 0019 "Flow steps")', () => {
  it('tejobank: "Check your e-mail", with the address, stays across a reload and Back/Forward; a link to registration starts afresh', async () => {
    const t = contentTextsIn('en_us');
    const site = listSiteFixtures().find((fixture) => fixture.siteId === 'tejobank')!;
    const journey = journeySiteOf(site, 'en_us');
    const email = `checkmail.${run}@example.com`;
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(url('tejobank', 'en_us', 'login-form'));
    await endsOn(page, 'login-form');
    await page.getByRole('link', { name: t('signIn', 'login.register') }).click();
    await endsOn(page, 'registration');
    await fillForm(page, 'tejobank', journey.registration.schema, journey.registration.uiSchema, email);
    await submitForm(page);
    await endsOn(page, 'add-pan');
    await page.locator('input[name="pan"]').fill(groupedCard(eligibleTestCards('tejobank', 1)[0]!));
    await page.locator('input[name="cvv"]').fill('737');
    await page.locator('.capture-block__submit').click();
    await page.locator('.card-rows .card-row__number').first().waitFor();
    await page.getByRole('button', { name: t('account', 'addCard.submit'), exact: true }).click();

    const checkEmail = async () => {
      await page.getByRole('heading', { name: t('account', 'checkEmail.title') }).waitFor();
      await page.getByRole('status').filter({ hasText: email }).waitFor();
      expect(await page.locator('#root_email').count()).toBe(0);
    };
    await checkEmail();
    await page.reload();
    await checkEmail();
    await saveScreenshot(page, 'flow-steps-tejobank-check-email-after-reload-390');
    await fitsPhoneWidth(page);
    await expectNoAxeViolations(page, 'check your e-mail after a reload (tejobank)');
    // Back to the form's address, Back out of the flow and Forward again: the registration was sent, so never an empty form.
    await page.goBack();
    await endsOn(page, 'registration');
    await checkEmail();
    await page.goBack();
    await endsOn(page, 'login-form');
    await page.goForward();
    await endsOn(page, 'registration');
    await checkEmail();
    // The address is kept for this tab; no secret is.
    const kept = await page.evaluate(() => JSON.stringify({ ...window.sessionStorage }));
    expect(kept).toContain(email);
    expect(kept).not.toContain('Sunny-Day-42');

    // Leaving the flow by a link ends it: a link to registration later starts afresh.
    await page.getByRole('link', { name: t('account', 'checkEmail.signIn') }).click();
    await endsOn(page, 'login-form');
    await page.getByRole('link', { name: t('signIn', 'login.register') }).click();
    await endsOn(page, 'registration');
    await page.locator('#root_email').waitFor();
    expect(await page.locator('#root_email').inputValue()).toBe('');
    await context.close();
  });

  it('eurobank (de_de): "Check your e-mail" offers a new activation link and another address; the sign-in link ends it, so "Konto erstellen" shows the form', async () => {
    const t = contentTextsIn('de_de');
    const site = listSiteFixtures().find((fixture) => fixture.siteId === 'eurobank')!;
    const journey = journeySiteOf(site, 'de_de');
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const register = async (email: string) => {
      await fillForm(page, 'eurobank', journey.registration.schema, journey.registration.uiSchema, email);
      await submitForm(page);
      await page.getByRole('heading', { name: t('account', 'checkEmail.title') }).waitFor();
      await page.getByRole('status').filter({ hasText: email }).waitFor();
    };
    const emptyForm = async () => {
      await page.locator('#root_email').waitFor();
      expect(await page.locator('#root_email').inputValue()).toBe('');
    };
    await page.goto(url('eurobank', 'de_de', 'registration'));
    await register(`another.${run}@example.com`);
    await page.reload();
    await page.getByRole('heading', { name: t('account', 'checkEmail.title') }).waitFor();
    await saveScreenshot(page, 'flow-steps-eurobank-check-email-ways-on-390');
    await fitsPhoneWidth(page);
    // Another address: a new, empty registration in the same tab.
    await page.getByRole('button', { name: t('account', 'registration.anotherAddress') }).click();
    await endsOn(page, 'registration');
    await emptyForm();
    await register(`signin.${run}@example.com`);
    // A new activation link: the resend-activation screen (SPEC §2).
    expect(await page.getByRole('link', { name: t('account', 'activate.resend') }).getAttribute('href')).toBe('/eurobank/de_de/account/resend-activation');
    // The sign-in link ends the flow: "Konto erstellen" there shows the form.
    await page.getByRole('link', { name: t('account', 'checkEmail.signIn') }).click();
    await endsOn(page, 'login-form');
    await page.getByRole('link', { name: t('signIn', 'login.register') }).click();
    await endsOn(page, 'registration');
    await emptyForm();
    await context.close();
  });

  it('bancosol (pt_br): "ask for a new code" has the channel chosen before ticked; a reload on reset-password stays there and asks the code with the new password', async () => {
    const pt = contentTextsIn('pt_br');
    // fixtures/demo-users.json: a bancosol holder with a phone, so the code can go by SMS (the step-by-step variant).
    const ana = { email: 'ana.souza@example.com', phone: '11987654321' };
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const seen = await outboxIds(context.request, portal.baseUrl, ana.phone);
    await page.goto(url('bancosol', 'pt_br', 'recovery'));
    await endsOn(page, 'recovery');
    await page.locator('#root_email').fill(ana.email);
    await submitForm(page);
    await endsOn(page, 'passcode-preference');
    await page.getByLabel(pt('account', 'preference.sms')).check();
    await page.getByRole('button', { name: pt('account', 'preference.submit') }).click();
    await endsOn(page, 'passcode');
    const texted = await newPasscode(context.request, portal.baseUrl, ana.phone, seen);

    // The flow remembers the channel: asking again offers SMS, as chosen, also after a reload there.
    await page.getByRole('link', { name: pt('account', 'recovery.newCode') }).click();
    await endsOn(page, 'passcode-preference');
    expect(await page.getByLabel(pt('account', 'preference.sms')).isChecked()).toBe(true);
    expect(await page.getByLabel(pt('account', 'preference.email')).isChecked()).toBe(false);
    await saveScreenshot(page, 'flow-steps-bancosol-new-code-sms-kept-390');
    await page.reload();
    await endsOn(page, 'passcode-preference');
    expect(await page.getByLabel(pt('account', 'preference.sms')).isChecked()).toBe(true);
    await page.goBack();
    await endsOn(page, 'passcode');
    await page.locator('#root_passcode').fill(texted);
    await submitForm(page);
    await endsOn(page, 'reset-password');
    await page.locator('#root_password').waitFor();
    expect(await page.locator('#root_passcode').count()).toBe(0);

    // A reload keeps the new-password step; the checked code was a secret, so it is asked here with the password.
    await page.reload();
    await endsOn(page, 'reset-password');
    await page
      .getByRole('status')
      .filter({ hasText: pt('account', 'reset.codeNotKept') })
      .waitFor();
    await page.locator('#root_passcode').waitFor();
    await page.locator('#root_password').waitFor();
    await saveScreenshot(page, 'flow-steps-bancosol-reset-password-after-reload-390');
    await fitsPhoneWidth(page);
    await expectNoAxeViolations(page, 'reset-password after a reload (bancosol pt_br)');
    const kept = await page.evaluate(() => window.sessionStorage.getItem('flow_steps') ?? '');
    expect(kept).toContain(ana.email);
    expect(kept).toContain('sms');
    expect(kept).not.toContain(texted);
    await page.locator('#root_passcode').fill(texted);
    await page.locator('#root_password').fill('Nova-Senha-2027');
    await page.locator('#root_confirm_password').fill('Nova-Senha-2027');
    await submitForm(page);
    await endsOn(page, 'login-form');
    await page.getByText(pt('common', 'notice.passwordReset')).waitFor();
    expect(await page.evaluate(() => window.sessionStorage.getItem('flow_steps'))).toBeNull();
    await context.close();
  });

  it('bancosol (pt_br): reset-password reached without a code says to ask for one, and its link says so and goes there', async () => {
    const pt = contentTextsIn('pt_br');
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(url('bancosol', 'pt_br', 'reset-password'));
    await endsOn(page, 'reset-password');
    await page.getByText(pt('account', 'reset.needsCode')).waitFor();
    await page.getByRole('link', { name: pt('account', 'reset.askForCode') }).click();
    await endsOn(page, 'recovery');
    await page.locator('#root_email').waitFor();
    await context.close();
  });

  it('dohabank (ar_qa): a reload on the authenticator step says nothing of a code sent', async () => {
    const ar = contentTextsIn('ar_qa');
    const mariam = { email: 'mariam.alkuwari@example.com', password: 'Doha!Rewards7' };
    // The site requires an authenticator: it is set up first (route guard mfaRequired).
    const setUp = await browser.newContext();
    await signInForTest(setUp, portal.baseUrl, mariam.email, 'dohabank');
    const setUpPage = await setUp.newPage();
    await setUpPage.goto(url('dohabank', 'ar_qa', 'mfa-setup'));
    await endsOn(setUpPage, 'mfa-setup');
    await setUpPage.getByRole('button', { name: ar('signIn', 'mfa.start') }).click();
    const secret = ((await setUpPage.getByTestId('totp-key').textContent()) ?? '').replace(/ /g, '');
    await setUpPage.locator('#root_passcode').fill(totpCode(secret, Date.now() / 1000));
    await setUpPage.getByRole('button', { name: ar('signIn', 'mfa.enroll') }).click();
    await setUpPage.getByRole('button', { name: ar('signIn', 'mfa.codes.saved') }).click();
    await setUp.close();

    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(url('dohabank', 'ar_qa', 'login-form'));
    await endsOn(page, 'login-form');
    await page.locator('#root_username').fill(mariam.email);
    await page.locator('#root_password').fill(mariam.password);
    await submitForm(page);
    await endsOn(page, 'login-otp');
    await page.getByText(ar('signIn', 'otp.totpIntro')).waitFor();

    await page.reload();
    await endsOn(page, 'login-form');
    const notice = page.getByRole('status').filter({ hasText: ar('signIn', 'login.passcodeStepKeptNoCodeSent') });
    await notice.waitFor();
    expect(await page.getByText(ar('signIn', 'login.passcodeStepKept')).count()).toBe(0);
    await saveScreenshot(page, 'flow-steps-dohabank-authenticator-after-reload-390');
    await fitsPhoneWidth(page);
    await page.locator('#root_password').fill(mariam.password);
    await submitForm(page);
    await endsOn(page, 'login-otp');
    await page.getByText(ar('signIn', 'otp.totpIntro')).waitFor();
    await context.close();
  });
});

describe('what a page says fits what just happened', () => {
  it('firstbank: after signing out, sign-in says so once, in the page language; a reload does not repeat it and the address carries no flag', async () => {
    const t = contentTextsIn('en_us');
    const context = await browser.newContext({ viewport: PHONE });
    await signInForTest(context, portal.baseUrl, 'emily.carter@example.com', 'firstbank');
    const page = await context.newPage();
    await page.goto(url('firstbank', 'en_us', 'profile'));
    await endsOn(page, 'profile');
    const before = new URL(page.url()).search;
    await page.goto(url('firstbank', 'en_us', 'logout'));
    await endsOn(page, 'login-form');
    await page
      .getByRole('status')
      .filter({ hasText: t('signIn', 'login.signedOut') })
      .waitFor();
    expect(new URL(page.url()).search).toBe(before);
    await saveScreenshot(page, 'flow-steps-firstbank-signed-out-390');
    await fitsPhoneWidth(page);
    await expectNoAxeViolations(page, 'sign-in after signing out (firstbank)');
    await page.reload();
    await endsOn(page, 'login-form');
    await page.locator('#root_username').waitFor();
    expect(await page.getByText(t('signIn', 'login.signedOut')).count()).toBe(0);
    await context.close();
  });

  it('firstbank manage cards: "card added" goes when the next number is typed, a field error when its field changes; the status event is raised as before', async () => {
    const t = contentTextsIn('en_us');
    const context = await browser.newContext({ viewport: PHONE });
    await signInForTest(context, portal.baseUrl, 'emily.carter@example.com', 'firstbank');
    const page = await context.newPage();
    await page.goto(url('firstbank', 'en_us', 'edit-pan'));
    await endsOn(page, 'edit-pan');
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seenCardStatus: string[] }).seenCardStatus = seen;
      window.addEventListener('cardStatus', (event) => {
        const detail = (event as CustomEvent<{ bannerId: string; alertType: string }>).detail;
        seen.push(`${detail.bannerId}:${detail.alertType}`);
      });
    });
    const input = page.locator('input[name="pan"]');
    const added = page.locator('.card-status').getByText(t('cards', 'panAdded'));
    await input.fill('4012 8888 8888 1881');
    await page.locator('.capture-block__submit').click();
    await added.waitFor();
    expect(await page.evaluate(() => (window as unknown as { seenCardStatus: string[] }).seenCardStatus)).toEqual(['card-added:success']);
    await saveScreenshot(page, 'flow-steps-firstbank-card-added-390');
    // A new entry begins: the last add's message is not this one's.
    await input.pressSequentially('4');
    await expect.poll(() => added.count(), { timeout: 2_000 }).toBe(0);

    // A field error goes when its field changes; a later add says "added" again.
    await input.fill('4111 1111 1111 1111');
    await page.locator('.capture-block__submit').click();
    const duplicate = page.getByRole('alert').filter({ hasText: t('cards', 'alreadyEnrolled') });
    await duplicate.waitFor();
    await input.fill('');
    await expect.poll(() => duplicate.count(), { timeout: 2_000 }).toBe(0);
    await input.pressSequentially('4242420000004242');
    await page.locator('.capture-block__submit').click();
    await added.waitFor();
    await saveScreenshot(page, 'flow-steps-firstbank-card-added-again-390');
    await fitsPhoneWidth(page);
    expect(await page.evaluate(() => (window as unknown as { seenCardStatus: string[] }).seenCardStatus)).toEqual(['card-added:success', 'card-added:success']);
    expect(routeOf(page)).toBe('edit-pan');
    await context.close();
  });
});
