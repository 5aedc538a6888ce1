import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import arQa from '../../fixtures/content/ar_qa.json';
import deDe from '../../fixtures/content/de_de.json';
import enUs from '../../fixtures/content/en_us.json';
import ptBr from '../../fixtures/content/pt_br.json';
import { activateWithPassword, activationLink, outboxSubjects } from './support/account-helpers';
import { collectCspViolations, saveScreenshot } from './support/browser';
import { browserTest, type PortalProcess } from './support/browser-test';
import { advanceGatewayClock, newPasscode, outboxIds, totpCode } from './support/sign-in-helpers';
import { endsOn, routeOf } from './support/navigation';

/**
 * The account lifecycle in Chromium against the real gateway and database (ADR 0009)
 * on the US, Brazilian and Qatar fixture sites, each in its own language: register with the site's
 * own fields and masks (and a card, as each captures cards at sign-up), read the activation mail
 * from the outbox, activate with the password chosen at registration, sign in (firstbank: e-mail passcode; bancosol and dohabank: SMS;
 * dohabank: MFA required, so mfa-setup first); recover by both variants; change the password with
 * each refusal; the compromised-credentials detour; delete the account. Fields are found by their
 * ids (`root_…`) and buttons by the site's own content texts, so one test reads every language.
 */
type Locale = 'en_us' | 'pt_br' | 'ar_qa' | 'de_de';
const CONTENT: Record<Locale, Record<string, Record<string, string>>> = { en_us: enUs, pt_br: ptBr, ar_qa: arQa, de_de: deDe };

/** The site's content text (the same file the gateway serves). */
function t(locale: Locale, group: string, key: string): string {
  const value = CONTENT[locale][group]?.[key];
  if (value === undefined) throw new Error(`no content ${locale} ${group}.${key}`);
  return value;
}

/** A unique address per run, so a reused DATA_DIR never meets an old account. */
const run = Date.now().toString(36);
const INITIAL_PASSWORD = 'Sunny-Day-42';
/** ADR 0009: an activation link is valid 48 hours. */
const ACTIVATION_LINK_SECONDS = 48 * 60 * 60;
/** On the bundled breached list (fixtures/common-passwords) and valid by SPEC §5's rules. */
const LISTED_PASSWORD = 'P@ssw0rd';

interface SiteJourney {
  siteId: string;
  locale: Locale;
  email: string;
  /** Where the SMS passcodes go (the phone as the form hands it over: its digits). */
  phone: string;
  /** The registration fields only this site asks for. */
  fillOwnFields(page: Page): Promise<void>;
  card: string;
}

const FIRSTBANK: SiteJourney = {
  siteId: 'firstbank',
  locale: 'en_us',
  email: `us.${run}@example.com`,
  phone: '2125550123',
  card: '4111 1111 1111 1111',
  async fillOwnFields(page) {
    await fillDob(page, { mm: '04', dd: '12', yyyy: '1988' });
    await fillMasked(page, '#root_nationalId', '501234567', '501-23-4567');
    await page.locator('#root_ninedigitbin').fill('412345678');
    await fillMasked(page, '#root_phone', '2125550123', '(212) 555-0123');
    await page.locator('#root_pp').check();
  },
};

const BANCOSOL: SiteJourney = {
  siteId: 'bancosol',
  locale: 'pt_br',
  email: `br.${run}@example.com`,
  phone: '11987654321',
  card: '4012 8888 8888 1881',
  async fillOwnFields(page) {
    await fillDob(page, { dd: '12', mm: '04', yyyy: '1990' });
    await fillMasked(page, '#root_phone', '11987654321', '(11) 98765-4321');
    await fillMasked(page, '#root_nationalId', '52998224725', '529.982.247-25');
    await page.locator('#root_address_street').fill('Avenida Paulista');
    await page.locator('#root_address_number').fill('1578');
    await page.locator('#root_address_neighborhood').fill('Bela Vista');
    await page.locator('#root_address_city').fill('São Paulo');
    await page.locator('#root_address_state').fill('SP');
    await fillMasked(page, '#root_address_zipcode', '01310100', '01310-100');
    await page.locator('#root_pp').check();
  },
};

const DOHABANK: SiteJourney = {
  siteId: 'dohabank',
  locale: 'ar_qa',
  email: `qa.${run}@example.com`,
  phone: '55123456',
  card: '4111 1111 1111 1111',
  async fillOwnFields(page) {
    await fillDob(page, { dd: '12', mm: '04', yyyy: '1985' });
    await fillMasked(page, '#root_phone', '55123456', '5512 3456');
  },
};

/** SPEC §5 masks: the digits typed, the site's mask shown as typed (the form hands over the digits). */
async function fillMasked(page: Page, selector: string, digits: string, shown: string): Promise<void> {
  await page.locator(selector).fill(digits);
  expect(await page.locator(selector).inputValue()).toBe(shown);
}

/** SPEC §5 dob parts in the site's order: the first part has the field's id, the others `root_dob_{part}`. */
async function fillDob(page: Page, parts: { mm: string; dd: string; yyyy: string }): Promise<void> {
  for (const [part, value] of Object.entries(parts)) {
    const own = page.locator(`#root_dob_${part}`);
    await ((await own.count()) > 0 ? own : page.locator('#root_dob')).fill(value);
  }
}

describe('account lifecycle in Chromium against the gateway (SPEC §2, §5, §7, §8; ADR 0009)', () => {
  let portal: PortalProcess;
  let browser: Browser;

  browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
    portal = filePortal;
    browser = fileBrowser;
  });

  const url = (site: SiteJourney, route: string, search = '') => `${portal.baseUrl}/${site.siteId}/${site.locale}/account/${route}${search}`;
  const submitForm = (page: Page) => page.locator('.site-form button[type="submit"]').first().click();

  async function alertText(page: Page): Promise<string> {
    const alert = page.locator('main [role="alert"]').first();
    await alert.waitFor();
    return (await alert.textContent()) ?? '';
  }

  async function statusText(page: Page): Promise<string> {
    const status = page.locator('main [role="status"]').first();
    await status.waitFor();
    return (await status.textContent()) ?? '';
  }

  /** registration (the site's form) → add-pan (one card) → "check your e-mail" → activation link from the outbox. */
  async function register(context: BrowserContext, site: SiteJourney, password = INITIAL_PASSWORD, options: { card?: boolean } = {}): Promise<string> {
    const seen = await outboxIds(context.request, portal.baseUrl, site.email);
    const page = await context.newPage();
    const cspViolations = collectCspViolations(page);
    await page.goto(url(site, 'registration'));
    await page.locator('#root_first_name').waitFor();
    await page.locator('#root_first_name').fill('Alex');
    await page.locator('#root_last_name').fill('Morgan');
    await page.locator('#root_email').fill(site.email);
    await page.locator('#root_password').fill(password);
    await page.locator('#root_confirm_password').fill(password);
    await site.fillOwnFields(page);
    await saveScreenshot(page, `account-registration-${site.siteId}`);
    await submitForm(page);
    await endsOn(page, 'add-pan');
    if (options.card !== false) {
      // The card module's capture block (SPEC §2 card screens): the number is checked with the gateway, then listed.
      await page.locator('input[name="pan"]').fill(site.card);
      await page.locator('.capture-block__submit').click();
      await page.locator('.card-rows .card-row__number').first().waitFor();
      expect(await page.locator('.card-rows .card-row__number').first().textContent()).toBe(`XXXX XXXX XXXX ${site.card.slice(-4)}`);
    }
    await saveScreenshot(page, `account-add-pan-${site.siteId}`);
    await page.getByRole('button', { name: t(site.locale, 'account', 'addCard.submit'), exact: true }).click();
    await page.getByRole('heading', { name: t(site.locale, 'account', 'checkEmail.title') }).waitFor();
    await saveScreenshot(page, `account-check-email-${site.siteId}`);
    expect(cspViolations).toEqual([]);
    await page.close();
    return activationLink(context.request, portal.baseUrl, site.email, seen);
  }

  /** ADR 0009 "Activation": the link's page asks for the password chosen at registration. */
  async function activate(context: BrowserContext, site: SiteJourney, link: string, password = INITIAL_PASSWORD): Promise<void> {
    const page = await context.newPage();
    await activateWithPassword(page, link, password);
    await page.getByText(t(site.locale, 'account', 'activate.success')).waitFor();
    await saveScreenshot(page, `account-activated-${site.siteId}`);
    await page.close();
  }

  /** Sign-in with the site's second step: a passcode by e-mail (firstbank) or SMS (bancosol, dohabank), read from the outbox. */
  async function signIn(context: BrowserContext, site: SiteJourney, password: string): Promise<Page> {
    const to = site.siteId === 'firstbank' ? site.email : site.phone;
    const seen = await outboxIds(context.request, portal.baseUrl, to);
    const page = await context.newPage();
    await page.goto(url(site, 'login-form'));
    await page.locator('#root_username').fill(site.email);
    await page.locator('#root_password').fill(password);
    await submitForm(page);
    await endsOn(page, 'login-otp');
    await page.locator('#root_otp').fill(await newPasscode(context.request, portal.baseUrl, to, seen));
    await submitForm(page);
    await expect.poll(() => routeOf(page), { timeout: 15_000 }).not.toBe('login-otp');
    return page;
  }

  async function changePassword(page: Page, site: SiteJourney, current: string, next: string): Promise<void> {
    await page.goto(url(site, 'password'));
    await page.locator('#root_currentPassword').fill(current);
    await page.locator('#root_password').fill(next);
    await page.locator('#root_confirm_password').fill(next);
    await submitForm(page);
  }

  it('firstbank (US): registers with its fields and masks and a card, activates from the e-mail, signs in with the e-mail passcode', async () => {
    const context = await browser.newContext();
    const link = await register(context, FIRSTBANK);
    expect(new URL(link).pathname).toBe('/firstbank/en_us/account/activate');
    await activate(context, FIRSTBANK, link);
    // The token is single use (ADR 0009): opened again, it says the account is active and offers sign-in.
    const again = await context.newPage();
    await activateWithPassword(again, link, INITIAL_PASSWORD);
    expect(await statusText(again)).toContain(t('en_us', 'account', 'activate.alreadyActive'));
    await saveScreenshot(again, 'account-activate-used-link');
    const page = await signIn(context, FIRSTBANK, INITIAL_PASSWORD);
    await endsOn(page, 'profile');
    await context.close();
  });

  it('a second registration with the same address answers the same and makes no second account: the owner gets a "someone tried" mail', async () => {
    const context = await browser.newContext();
    const seen = await outboxIds(context.request, portal.baseUrl, FIRSTBANK.email);
    const page = await context.newPage();
    await page.goto(url(FIRSTBANK, 'registration'));
    await page.locator('#root_first_name').fill('Alex');
    await page.locator('#root_last_name').fill('Morgan');
    await page.locator('#root_email').fill(FIRSTBANK.email);
    await page.locator('#root_password').fill(INITIAL_PASSWORD);
    await page.locator('#root_confirm_password').fill(INITIAL_PASSWORD);
    await FIRSTBANK.fillOwnFields(page);
    await submitForm(page);
    await endsOn(page, 'add-pan');
    await page.getByRole('button', { name: 'Create account', exact: true }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await expect.poll(async () => (await outboxIds(context.request, portal.baseUrl, FIRSTBANK.email)).size, { timeout: 10_000 }).toBeGreaterThan(seen.size);
    expect((await outboxSubjects(context.request, portal.baseUrl, FIRSTBANK.email))[0]).toBe('Someone tried to register with your e-mail address');
    await context.close();
  });

  it('firstbank: change password with each refusal (current incorrect, reused, breached), then success → /profile?editPw=true', async () => {
    const context = await browser.newContext();
    const page = await signIn(context, FIRSTBANK, INITIAL_PASSWORD);
    await endsOn(page, 'profile');

    await changePassword(page, FIRSTBANK, 'Not-My-Pass-1', 'Brand-New-Pass-7');
    await page.locator('#root_currentPassword__error').getByText('Current password is incorrect.').waitFor();
    expect(await page.locator('#root_currentPassword').getAttribute('aria-invalid')).toBe('true');
    await saveScreenshot(page, 'account-password-current-incorrect');

    await changePassword(page, FIRSTBANK, INITIAL_PASSWORD, INITIAL_PASSWORD);
    expect(await alertText(page)).toContain(t('en_us', 'account', 'error.passwordReused'));
    await saveScreenshot(page, 'account-password-reused');

    await changePassword(page, FIRSTBANK, INITIAL_PASSWORD, LISTED_PASSWORD);
    expect(await alertText(page)).toContain(t('en_us', 'account', 'error.passwordCompromised'));
    await saveScreenshot(page, 'account-password-compromised');

    await changePassword(page, FIRSTBANK, INITIAL_PASSWORD, 'Brand-New-Pass-7');
    await endsOn(page, 'profile');
    await page.getByText('Your password has been updated.').waitFor();
    // A one-time notice: the flag has left the address (SPEC §2 editPw), so a reload does not say it again.
    await page.waitForFunction(() => !new URL(window.location.href).searchParams.has('editPw'));
    await saveScreenshot(page, 'account-password-updated');
    await context.close();
  });

  it('firstbank, current recovery variant: recovery → reset-password (code from the outbox + new password) → sign-in with a notice', async () => {
    const context = await browser.newContext();
    const seen = await outboxIds(context.request, portal.baseUrl, FIRSTBANK.email);
    const page = await context.newPage();
    await page.goto(url(FIRSTBANK, 'recovery'));
    await page.locator('#root_email').fill(FIRSTBANK.email);
    await saveScreenshot(page, 'account-recovery-firstbank');
    await submitForm(page);
    await endsOn(page, 'reset-password');
    const code = await newPasscode(context.request, portal.baseUrl, FIRSTBANK.email, seen);
    // A wrong code first: the attempts left.
    await page.locator('#root_passcode').fill(code === '000000' ? '111111' : '000000');
    await page.locator('#root_password').fill('Recovered-Pass-8');
    await page.locator('#root_confirm_password').fill('Recovered-Pass-8');
    await submitForm(page);
    expect(await alertText(page)).toMatch(/That recovery code isn't correct\. Attempts left: \d\./);
    await saveScreenshot(page, 'account-reset-password-wrong-code');
    await page.locator('#root_passcode').fill(code);
    await submitForm(page);
    await endsOn(page, 'login-form');
    await page.getByText(t('en_us', 'common', 'notice.passwordReset')).waitFor();
    await saveScreenshot(page, 'account-password-reset-notice');
    const signedIn = await signIn(context, FIRSTBANK, 'Recovered-Pass-8');
    await endsOn(signedIn, 'profile');
    await context.close();
  });

  it('recovery of an unknown address answers exactly like a known one (no account enumeration)', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url(FIRSTBANK, 'recovery'));
    await page.locator('#root_email').fill(`nobody.${run}@example.com`);
    await submitForm(page);
    await endsOn(page, 'reset-password');
    await context.close();
  });

  it('bancosol (Brazil, pt_br): registers with CPF, CEP and a mobile number, activates, signs in by SMS; step-by-step recovery', async () => {
    const context = await browser.newContext();
    await activate(context, BANCOSOL, await register(context, BANCOSOL));
    const signedIn = await signIn(context, BANCOSOL, INITIAL_PASSWORD);
    await endsOn(signedIn, 'profile');
    await signedIn.close();
    await context.clearCookies();

    const seen = await outboxIds(context.request, portal.baseUrl, BANCOSOL.email);
    const page = await context.newPage();
    await page.goto(url(BANCOSOL, 'recovery'));
    await page.locator('#root_email').fill(BANCOSOL.email);
    await submitForm(page);
    await endsOn(page, 'passcode-preference');
    // No destinations are shown: nothing to enumerate.
    expect(await page.locator('main').textContent()).not.toContain(BANCOSOL.email);
    await saveScreenshot(page, 'account-passcode-preference-bancosol');
    await page.getByLabel(t('pt_br', 'account', 'preference.email')).check();
    await page.getByRole('button', { name: t('pt_br', 'account', 'preference.submit') }).click();
    await endsOn(page, 'passcode');
    await page.locator('#root_passcode').fill(await newPasscode(context.request, portal.baseUrl, BANCOSOL.email, seen));
    await saveScreenshot(page, 'account-passcode-bancosol');
    await submitForm(page);
    await endsOn(page, 'reset-password');
    // The URL changes before the passcode screen is replaced: wait for the new form, then check the old field went.
    await page.locator('#root_password').waitFor();
    await expect.poll(() => page.locator('#root_passcode').count()).toBe(0);
    await page.locator('#root_password').fill('Nova-Senha-2025');
    await page.locator('#root_confirm_password').fill('Nova-Senha-2025');
    await saveScreenshot(page, 'account-reset-password-bancosol');
    await submitForm(page);
    await endsOn(page, 'login-form');
    await page.getByText(t('pt_br', 'common', 'notice.passwordReset')).waitFor();
    const again = await signIn(context, BANCOSOL, 'Nova-Senha-2025');
    await endsOn(again, 'profile');
    await context.close();
  });

  it("eurobank (no passcode at sign-in, de_de): someone registers the owner's address with their own password; the owner's link asks for that password, so the owner resets it, signs in to an account of their own, and the registrant's password opens nothing", async () => {
    const eurobank = (route: string) => `${portal.baseUrl}/eurobank/de_de/account/${route}`;
    const owner = `owner.${run}@example.com`;
    const ownPassword = 'Eigenes-Passwort-5';
    const squattersPassword = 'Fremdes-Passwort-6';

    // The registrant, with the owner's address and a password of their choosing (SPEC §2 registration).
    const squatter = await browser.newContext();
    const seen = await outboxIds(squatter.request, portal.baseUrl, owner);
    const registration = await squatter.newPage();
    await registration.goto(eurobank('registration'));
    await registration.locator('#root_first_name').fill('Mallory');
    await registration.locator('#root_last_name').fill('Fremd');
    await registration.locator('#root_email').fill(owner);
    await registration.locator('#root_password').fill(squattersPassword);
    await registration.locator('#root_confirm_password').fill(squattersPassword);
    await registration.locator('#root_bin').fill('41111111');
    await submitForm(registration);
    await registration.getByRole('heading', { name: t('de_de', 'account', 'checkEmail.title') }).waitFor();
    const link = await activationLink(squatter.request, portal.baseUrl, owner, seen);

    // The owner opens the mail: the page asks for the password chosen at registration, which they do not know.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(link);
    expect(await page.locator('main .sign-in__intro').textContent()).toBe(t('de_de', 'account', 'activate.intro'));
    await activateWithPassword(page, link, ownPassword);
    expect(await alertText(page)).toContain(t('de_de', 'account', 'activate.passwordIncorrect.other').replace('{{count}}', '4'));
    await expect.poll(() => page.locator('#root_password').getAttribute('aria-invalid')).toBe('true');
    await page
      .getByText(t('de_de', 'form', 'registrationPasswordIncorrect'))
      .first()
      .waitFor();
    await saveScreenshot(page, 'account-activate-not-their-password-eurobank');

    // Their way in: choose their own password through recovery, which proves the mailbox.
    await page.getByRole('link', { name: t('de_de', 'account', 'activate.ownPassword') }).click();
    await endsOn(page, 'recovery');
    const codesSeen = await outboxIds(context.request, portal.baseUrl, owner);
    await page.locator('#root_email').fill(owner);
    await submitForm(page);
    await endsOn(page, 'reset-password');
    await page.locator('#root_passcode').fill(await newPasscode(context.request, portal.baseUrl, owner, codesSeen));
    await page.locator('#root_password').fill(ownPassword);
    await page.locator('#root_confirm_password').fill(ownPassword);
    await submitForm(page);
    await endsOn(page, 'login-form');
    await page.getByText(t('de_de', 'common', 'notice.passwordReset')).waitFor();
    await page.locator('#root_username').fill(owner);
    await page.locator('#root_password').fill(ownPassword);
    await submitForm(page);
    // The reset activated the account, afresh: the owner is signed in to an active account with nothing of the registrant's.
    await endsOn(page, 'profile');
    await page.getByText(owner).first().waitFor();
    expect(await page.locator('main').textContent()).not.toContain('Mallory');
    await saveScreenshot(page, 'account-activated-by-reset-eurobank');

    // The registrant's password opens nothing, and their link no more.
    const attempt = await squatter.newPage();
    await attempt.goto(eurobank('login-form'));
    await attempt.locator('#root_username').fill(owner);
    await attempt.locator('#root_password').fill(squattersPassword);
    await submitForm(attempt);
    expect(await alertText(attempt)).toContain(t('de_de', 'errors', 'wrongCombination'));
    // The reset deleted the unproved account whole (ADR 0009), its links with it: the link is no one's now.
    await activateWithPassword(attempt, link, squattersPassword);
    expect(await alertText(attempt)).toContain(t('de_de', 'account', 'activate.invalid'));
    await squatter.close();
    await context.close();
  });

  it('firstbank: registration refuses a breached password (ADR 0012) and sends no activation mail', async () => {
    const breached: SiteJourney = { ...FIRSTBANK, email: `breached.${run}@example.com` };
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url(breached, 'registration'));
    await page.locator('#root_first_name').fill('Alex');
    await page.locator('#root_last_name').fill('Morgan');
    await page.locator('#root_email').fill(breached.email);
    await page.locator('#root_password').fill(LISTED_PASSWORD);
    await page.locator('#root_confirm_password').fill(LISTED_PASSWORD);
    await breached.fillOwnFields(page);
    await submitForm(page);
    await endsOn(page, 'add-pan');
    await page.getByRole('button', { name: t('en_us', 'account', 'addCard.submit'), exact: true }).click();
    await page.getByText(t('en_us', 'account', 'error.passwordCompromised')).waitFor();
    await saveScreenshot(page, 'account-registration-breached-password');
    expect(await outboxSubjects(context.request, portal.baseUrl, breached.email)).toEqual([]);
    await context.close();
  });

  it('eurobank (no passcode at sign-in): a breached password (demo user mia.hoffmann) first proves the mailbox on the passcode step, then compromised-credentials', async () => {
    const breached = { siteId: 'eurobank', locale: 'de_de', email: 'mia.hoffmann@example.com' } as const;
    const at = (route: string) => `${portal.baseUrl}/${breached.siteId}/${breached.locale}/account/${route}`;
    const context = await browser.newContext();
    const seen = await outboxIds(context.request, portal.baseUrl, breached.email);
    const page = await context.newPage();
    await page.goto(at('login-form'));
    await page.locator('#root_username').fill(breached.email);
    await page.locator('#root_password').fill(LISTED_PASSWORD);
    await submitForm(page);
    // ADR 0009 "Breached passwords": the password alone opens nothing; the intro says why and where the code went.
    await endsOn(page, 'login-otp');
    const intro = t('de_de', 'signIn', 'otp.breachedPasswordIntro').replace('{{destination}}', 'm***@example.com');
    expect(await page.locator('main .sign-in__intro').textContent()).toBe(intro);
    expect(await page.locator('main input[type="checkbox"]').count()).toBe(0);
    await saveScreenshot(page, 'account-breached-password-passcode');
    // A wrong code keeps the step, with the passcode refusal.
    await page.locator('#root_otp').fill('000000');
    const code = await newPasscode(context.request, portal.baseUrl, breached.email, seen);
    if (code !== '000000') {
      await submitForm(page);
      await page.locator('main [role="alert"]').first().waitFor();
      expect(routeOf(page)).toBe('login-otp');
    }
    await page.locator('#root_otp').fill(code);
    await submitForm(page);
    await endsOn(page, 'compromised-credentials');
    await page.locator('#root_password').fill('Safer-Choice-94');
    await page.locator('#root_confirm_password').fill('Safer-Choice-94');
    await submitForm(page);
    await expect.poll(() => routeOf(page), { timeout: 15_000 }).not.toBe('compromised-credentials');
    await context.close();
  });

  it('firstbank: a sign-in with a breached password (demo user casey.park) goes to compromised-credentials, which sets a new one', async () => {
    const breached: SiteJourney = { ...FIRSTBANK, email: 'casey.park@example.com' };
    const context = await browser.newContext();
    const page = await signIn(context, breached, LISTED_PASSWORD);
    await endsOn(page, 'compromised-credentials');
    await saveScreenshot(page, 'account-compromised-credentials');
    // ADR 0009: the change cannot be skipped: the profile opened by its URL (a full load) lands back here.
    await page.goto(url(breached, 'profile'));
    await endsOn(page, 'compromised-credentials');
    await page.locator('#root_password').fill('Safer-Choice-93');
    await page.locator('#root_confirm_password').fill('Safer-Choice-93');
    await submitForm(page);
    await endsOn(page, 'profile');
    await page.getByText('Your password has been updated.').waitFor();
    await context.close();
  });

  it('dohabank (Qatar, ar_qa): registers with its phone mask, activates, signs in by SMS, sets up MFA (required), then deletes the account', async () => {
    const context = await browser.newContext();
    await activate(context, DOHABANK, await register(context, DOHABANK));
    const page = await signIn(context, DOHABANK, INITIAL_PASSWORD);
    await endsOn(page, 'mfa-setup');
    await page.getByRole('button', { name: t('ar_qa', 'signIn', 'mfa.start') }).click();
    const secret = ((await page.getByTestId('totp-key').textContent()) ?? '').replace(/ /g, '');
    await page.locator('#root_passcode').fill(totpCode(secret, Date.now() / 1000));
    await page.getByRole('button', { name: t('ar_qa', 'signIn', 'mfa.enroll') }).click();
    await page.getByRole('button', { name: t('ar_qa', 'signIn', 'mfa.codes.saved') }).click();
    await page
      .getByText(t('ar_qa', 'signIn', 'mfa.enrolledNow').slice(0, 10))
      .first()
      .waitFor();

    await page.goto(url(DOHABANK, 'delete-profile'));
    await page.getByRole('button', { name: t('ar_qa', 'account', 'delete.confirm') }).waitFor();
    // ADR 0009 "Deletion: proof of presence": the current password and the ticked confirmation.
    await page.locator('#root_currentPassword').fill(INITIAL_PASSWORD);
    await page.locator('#root_confirmDelete').check();
    await saveScreenshot(page, 'account-delete-profile-dohabank');
    await page.getByRole('button', { name: t('ar_qa', 'account', 'delete.confirm') }).click();
    await endsOn(page, 'login-form');
    await page.getByText(t('ar_qa', 'common', 'notice.accountDeleted')).waitFor();
    await saveScreenshot(page, 'account-deleted-dohabank');
    expect((await context.cookies(portal.baseUrl)).map((cookie) => cookie.name)).not.toContain('SESSION');

    // The account is gone: its password no longer signs in.
    await page.locator('#root_username').fill(DOHABANK.email);
    await page.locator('#root_password').fill(INITIAL_PASSWORD);
    await submitForm(page);
    expect(await alertText(page)).toContain(t('ar_qa', 'errors', 'wrongCombination'));
    await context.close();
  });

  it('firstbank: cancel keeps the account; a wrong password or no ticked confirmation deletes nothing; the password and the tick delete it and sign out', async () => {
    const context = await browser.newContext();
    const page = await signIn(context, FIRSTBANK, 'Recovered-Pass-8');
    await endsOn(page, 'profile');
    await page.goto(url(FIRSTBANK, 'delete-profile'));
    await page.getByRole('link', { name: 'Cancel' }).click();
    await endsOn(page, 'profile');
    await page.getByRole('link', { name: t('en_us', 'profile', 'link.delete-profile') }).click();
    await endsOn(page, 'delete-profile');
    const deleteButton = page.getByRole('button', { name: 'Delete my account' });
    // Not ticked: the form says so beside the box and sends nothing.
    await page.locator('#root_currentPassword').fill('Recovered-Pass-8');
    await deleteButton.click();
    await expect.poll(() => page.locator('#root_confirmDelete').getAttribute('aria-invalid')).toBe('true');
    // A wrong password: refused beside its field, still signed in.
    await page.locator('#root_confirmDelete').check();
    await page.locator('#root_currentPassword').fill('Not-My-Password-1');
    await deleteButton.click();
    await expect.poll(() => page.locator('#root_currentPassword').getAttribute('aria-invalid')).toBe('true');
    await page
      .getByText(t('en_us', 'form', 'currentPasswordIncorrect'))
      .first()
      .waitFor();
    await saveScreenshot(page, 'account-delete-profile-wrong-password');
    expect(routeOf(page)).toBe('delete-profile');
    await page.locator('#root_currentPassword').fill('Recovered-Pass-8');
    await deleteButton.click();
    await endsOn(page, 'login-form');
    await page.getByText('Your account has been deleted.').waitFor();
    await context.close();
  });

  // Last: it moves the gateway's clock two days on.
  it('an activation link expires after 48 hours (test clock); resend-activation sends a new one that works', async () => {
    const late: SiteJourney = { ...FIRSTBANK, email: `late.${run}@example.com` };
    const context = await browser.newContext();
    const oldLink = await register(context, late, INITIAL_PASSWORD, { card: false });
    const page = await context.newPage();
    await page.goto(url(late, 'login-form'));
    await advanceGatewayClock(context, portal.baseUrl, ACTIVATION_LINK_SECONDS + 60);
    await activateWithPassword(page, oldLink, INITIAL_PASSWORD);
    expect(await alertText(page)).toContain(t('en_us', 'account', 'activate.expired'));
    await saveScreenshot(page, 'account-activate-expired');

    const seen = await outboxIds(context.request, portal.baseUrl, late.email);
    await page.getByRole('link', { name: t('en_us', 'account', 'activate.resend') }).click();
    await endsOn(page, 'resend-activation');
    await page.locator('#root_email').fill(late.email);
    await submitForm(page);
    await page.getByRole('heading', { name: t('en_us', 'account', 'checkEmail.title') }).waitFor();
    await saveScreenshot(page, 'account-resend-activation');
    const newLink = await activationLink(context.request, portal.baseUrl, late.email, seen);
    expect(newLink).not.toBe(oldLink);
    await activate(context, late, newLink);
    await context.close();
  });
});
