import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import enUs from '../../fixtures/content/en_us.json';
import ptBr from '../../fixtures/content/pt_br.json';
import { expectNoAxeViolations } from './support/accessibility';
import { saveScreenshot } from './support/browser';
import { browserTest, type PortalProcess } from './support/browser-test';
import { endsOn, routeOf } from './support/navigation';
import { advanceGatewayClock, newPasscode, outboxIds } from './support/sign-in-helpers';

/**
 * "Confirm it's you" through the real gateway (src/screens/shared/use-fresh-proof.tsx): a phone change on
 * edit-profile is refused with 403 FRESH_PROOF_REQUIRED once the proof of the sign-in is older than the
 * gateway's 10 minutes (its test clock moves them on, never a sleep); the dialog sends a passcode (read from
 * the dev outbox), a wrong one is said next to the field without signing out, the right one saves the same
 * change. On a phone (390 px), each site in its own language: firstbank (e-mail passcode, en_us) and
 * bancosol (SMS, pt_br). Then the new phone is proved on the profile with the code texted to it (ADR 0025).
 * Screenshots go to test-output/screenshots/confirm-its-you-*.png.
 */
type Locale = 'en_us' | 'pt_br';
const CONTENT: Record<Locale, Record<string, Record<string, string>>> = { en_us: enUs, pt_br: ptBr };

function t(locale: Locale, group: string, key: string): string {
  const value = CONTENT[locale][group]?.[key];
  if (value === undefined) throw new Error(`no content ${locale} ${group}.${key}`);
  return value;
}

interface Journey {
  siteId: string;
  locale: Locale;
  email: string;
  password: string;
  /** Where the sign-in passcode goes: the e-mail, or the phone's digits as the gateway texts it. */
  signInTo: string;
  /** The channel the dialog sends the fresh-proof code on, and where it arrives (the phone as stored before the change). */
  proofChannel: 'email' | 'sms';
  proofTo: string;
  /** The new phone, typed as digits and shown in the site's mask (SPEC §5) on the form and on the profile. */
  newPhone: string;
  newPhoneShown: string;
}

const JOURNEYS: Journey[] = [
  {
    siteId: 'firstbank',
    locale: 'en_us',
    email: 'emily.carter@example.com',
    password: 'Firstbank#2025',
    signInTo: 'emily.carter@example.com',
    proofChannel: 'email',
    proofTo: 'emily.carter@example.com',
    newPhone: '2125550123',
    newPhoneShown: '(212) 555-0123',
  },
  {
    siteId: 'bancosol',
    locale: 'pt_br',
    email: 'ana.souza@example.com',
    password: 'Recompensas@2025',
    signInTo: '11987654321',
    proofChannel: 'sms',
    proofTo: '11987654321',
    newPhone: '11912345678',
    newPhoneShown: '(11) 91234-5678',
  },
];

/** The gateway counts a proof for 10 minutes; a sign-in passcode is one. */
const PAST_THE_PROOF_SECONDS = 11 * 60;
const PHONE_VIEWPORT = { width: 390, height: 844 };
/** The dialog is fixed to the viewport: it is pictured as the person sees it. */
const DIALOG_SHOT = { fullPage: false };

describe("Confirm it's you on edit-profile, through the gateway, on a phone", () => {
  let portal: PortalProcess;
  let browser: Browser;

  browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
    portal = filePortal;
    browser = fileBrowser;
  });

  const url = (journey: Journey, route: string) => `${portal.baseUrl}/${journey.siteId}/${journey.locale}/account/${route}`;

  async function submit(page: Page): Promise<void> {
    await page.locator('#root form.site-form button[type="submit"]').first().click();
  }

  for (const journey of JOURNEYS) {
    it(`${journey.siteId} (${journey.locale}): a phone change asks for a passcode by ${journey.proofChannel}; a wrong one keeps the session, the right one saves the phone`, async () => {
      const { locale } = journey;
      const context = await browser.newContext({ viewport: PHONE_VIEWPORT, isMobile: true, hasTouch: true });
      const request = context.request;
      const page = await context.newPage();

      // Sign in with the site's passcode, read from the outbox.
      const seenAtSignIn = await outboxIds(request, portal.baseUrl, journey.signInTo);
      await page.goto(url(journey, 'login-form'));
      await endsOn(page, 'login-form');
      await page.locator('#root_username').fill(journey.email);
      await page.locator('#root_password').fill(journey.password);
      await submit(page);
      await endsOn(page, 'login-otp');
      await page.locator('#root_otp').fill(await newPasscode(request, portal.baseUrl, journey.signInTo, seenAtSignIn));
      await submit(page);
      await endsOn(page, 'profile');

      // The sign-in's proof runs out.
      await advanceGatewayClock(context, portal.baseUrl, PAST_THE_PROOF_SECONDS);

      await page.goto(url(journey, 'edit-profile'));
      await endsOn(page, 'edit-profile');
      const phone = page.locator('#root_phone');
      await phone.fill(journey.newPhone);
      expect(await phone.inputValue()).toBe(journey.newPhoneShown);
      const seenAtProof = await outboxIds(request, portal.baseUrl, journey.proofTo);
      await page.getByRole('button', { name: t(locale, 'profile', 'edit.submit') }).click();

      const dialog = page.getByRole('dialog', { name: t(locale, 'signIn', 'freshProof.title') });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain(t(locale, 'signIn', 'freshProof.intro'));
      // Several channels: the person picks; one: the code is already on its way.
      const choice = dialog.locator(`input[type="radio"][value="${journey.proofChannel}"]`);
      const sentTo = dialog.getByTestId('fresh-proof-sent-to');
      await expect.poll(async () => (await choice.count()) + (await sentTo.count()), { timeout: 15_000 }).toBeGreaterThan(0);
      if ((await sentTo.count()) === 0) {
        await choice.check();
        await saveScreenshot(page, `confirm-its-you-${journey.siteId}-choice`, DIALOG_SHOT);
        await dialog.getByRole('button', { name: t(locale, 'signIn', 'preference.submit') }).click();
      }
      const sentText = (await sentTo.textContent({ timeout: 15_000 })) ?? '';
      // Where it went, in the page's language, masked: never the whole address or number.
      const [before, after] = t(locale, 'signIn', journey.proofChannel === 'email' ? 'otp.sentToEmail' : 'otp.sentToPhone').split('{{destination}}');
      expect(sentText.startsWith(before ?? '') && sentText.endsWith(after ?? '')).toBe(true);
      expect(sentText).toContain('*');
      expect(sentText).not.toContain(journey.proofTo);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await expectNoAxeViolations(page, `confirm-its-you dialog ${journey.siteId}`);
      await saveScreenshot(page, `confirm-its-you-${journey.siteId}-dialog`, DIALOG_SHOT);

      const code = await newPasscode(request, portal.baseUrl, journey.proofTo, seenAtProof);
      const codeField = dialog.getByLabel(t(locale, 'signIn', 'freshProof.codeLabel'));
      const confirm = dialog.getByRole('button', { name: t(locale, 'signIn', 'freshProof.submit'), exact: true });

      // A wrong code: said next to the field, the dialog stays, the person stays signed in.
      await codeField.fill(code === '000000' ? '111111' : '000000');
      await confirm.click();
      await expect.poll(() => codeField.getAttribute('aria-invalid')).toBe('true');
      const described = await codeField.evaluate((field) =>
        (field.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      );
      expect(described.length).toBeGreaterThan(0);
      expect(routeOf(page)).toBe('edit-profile');
      expect(await phone.inputValue()).toBe(journey.newPhoneShown);
      await saveScreenshot(page, `confirm-its-you-${journey.siteId}-wrong-code`, DIALOG_SHOT);

      // The right code: the dialog closes and the same save goes again.
      await codeField.fill(code);
      await confirm.click();
      await endsOn(page, 'profile');
      await page.getByText(t(locale, 'profile', 'edit.saved')).waitFor();
      await expect.poll(() => page.locator('[data-field="phone"] dd').textContent()).toContain(journey.newPhoneShown);
      await saveScreenshot(page, `confirm-its-you-${journey.siteId}-saved`);

      // ADR 0025 "A new phone is proved before it counts": the profile asks for the code texted to the new number,
      // masked, and says codes still go to the old one until then.
      const proof = page.getByRole('region', { name: t(locale, 'profile', 'phoneProof.title') });
      await proof.waitFor();
      const [introStart] = t(locale, 'profile', 'phoneProof.intro').split('{{phone}}');
      expect(await proof.textContent()).toContain(introStart);
      expect(await proof.textContent()).toContain(journey.newPhone.slice(-4));
      expect(await proof.textContent()).not.toContain(journey.newPhone);
      const proofCode = await newPasscode(request, portal.baseUrl, journey.newPhone);
      const proofField = proof.getByLabel(t(locale, 'profile', 'phoneProof.codeLabel'));
      await proofField.fill(proofCode === '000000' ? '111111' : '000000');
      await proof.getByRole('button', { name: t(locale, 'profile', 'phoneProof.submit') }).click();
      await proof.getByText(t(locale, 'profile', 'phoneProof.wrongCode')).waitFor();
      expect(await proofField.getAttribute('aria-invalid')).toBe('true');
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await saveScreenshot(page, `confirm-its-you-${journey.siteId}-phone-proof`);
      await proofField.fill(proofCode);
      await proof.getByRole('button', { name: t(locale, 'profile', 'phoneProof.submit') }).click();
      await page.getByText(t(locale, 'profile', 'phoneProof.confirmed')).waitFor();
      await expect.poll(() => proof.count()).toBe(0);
      // Proved for good: a reload asks nothing.
      await page.reload();
      await endsOn(page, 'profile');
      await page.locator('[data-field="phone"]').waitFor();
      expect(await page.getByRole('region', { name: t(locale, 'profile', 'phoneProof.title') }).count()).toBe(0);
      await context.close();
    });
  }
});
