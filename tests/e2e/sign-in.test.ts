import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { collectCspViolations, saveScreenshot } from './support/browser';
import { browserTest, type PortalProcess } from './support/browser-test';
import { advanceGatewayClock, newPasscode, outboxIds, totpCode } from './support/sign-in-helpers';
import { signInForTest } from './support/test-session';
import { endsOn, routeOf } from './support/navigation';

/**
 * Sign-in in Chromium against the real gateway and database (ADR 0008 contract):
 * password; passcode by e-mail (read from the dev outbox); SMS chosen on a `choice` site; TOTP
 * enrolment and a sign-in with a computed RFC 6238 code; a trusted device skipping the passcode
 * for 15 minutes (the gateway's test clock, never a sleep); lockout; logout; returnurl.
 * Demo users and sites are the fixtures' (fixtures/demo-users.json, fixtures/sites/*.json).
 */
const USERS = {
  /** eurobank: site_auth_profile login_otp "none" — a password is enough. */
  password: { email: 'lukas.schneider@example.com', password: 'Eurobank&Sicher9', siteId: 'eurobank' },
  /** firstbank: login_otp "email". */
  emailCode: { email: 'emily.carter@example.com', password: 'Firstbank#2025', siteId: 'firstbank' },
  /** sabana: login_otp "choice"; phone as stored is where the SMS goes. */
  choice: { email: 'valentina.gomez@example.com', password: 'Sabana#Colombia1', siteId: 'sabana', phone: '3001234567' },
  /** promotions_en_us: login_otp "none" and mfa "optional", so the only second step after enrolment is the TOTP one. */
  totp: { email: 'jordan.lee@example.com', password: 'Promo^Deals42', siteId: 'promotions_en_us' },
  /** northbank: login_otp "email"; used for the trusted device. */
  trusted: { email: 'sophie.tremblay@example.com', password: 'Nord!Banque2025', siteId: 'northbank' },
  /** dohabank: the account locked by wrong passwords. */
  locked: { email: 'mariam.alkuwari@example.com', password: 'Doha!Rewards7', siteId: 'dohabank' },
} as const;

/** ADR 0008 limits: 5 wrong passwords in a row lock the account for 15 minutes. */
const WRONG_PASSWORDS_BEFORE_LOCK = 5;
const TRUSTED_DEVICE_SECONDS = 15 * 60;

describe('sign-in in Chromium against the gateway (SPEC §2, §3, §4, §8, §9; ADR 0008)', () => {
  let portal: PortalProcess;
  let browser: Browser;
  /** How far the tests moved the gateway's clock, so TOTP codes are computed at the gateway's time. */
  let clockOffsetSeconds = 0;

  browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
    portal = filePortal;
    browser = fileBrowser;
  });

  const url = (siteId: string, route: string, search = '') => `${portal.baseUrl}/${siteId}/en_us/account/${route}${search}`;

  async function openSignIn(context: BrowserContext, siteId: string, search = ''): Promise<Page> {
    const page = await context.newPage();
    await page.goto(url(siteId, 'login-form', search));
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    return page;
  }

  async function submitCredentials(page: Page, email: string, password: string): Promise<void> {
    await page.getByLabel(/^Email/).fill(email);
    await page.getByLabel(/^Password/).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  async function submitPasscode(page: Page, code: string, options: { trust?: boolean } = {}): Promise<void> {
    await page.getByLabel(/^One-time passcode/).fill(code);
    if (options.trust) await page.getByRole('checkbox', { name: /Trust this device/ }).check();
    await page.getByRole('button', { name: 'Verify' }).click();
  }

  async function cookieNames(context: BrowserContext): Promise<string[]> {
    return (await context.cookies(portal.baseUrl)).map((cookie) => cookie.name);
  }

  it('signs in with a password (login_otp none): session cookies set, /profile, no CSP violation, no password in storage', async () => {
    const context = await browser.newContext();
    const page = await openSignIn(context, USERS.password.siteId);
    const cspViolations = collectCspViolations(page);
    await saveScreenshot(page, 'sign-in-login-form');
    await submitCredentials(page, USERS.password.email, USERS.password.password);
    await endsOn(page, 'profile');
    expect(await cookieNames(context)).toEqual(expect.arrayContaining(['SESSION', 'gmap_authenticated', 'gmap_user_type', 'XSRF-TOKEN']));
    const storage = await page.evaluate(() => JSON.stringify({ ...window.localStorage }) + JSON.stringify({ ...window.sessionStorage }));
    expect(storage).not.toContain(USERS.password.password);
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('the sign-in form fits a phone: no sideways scrolling, a full-width field', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const page = await openSignIn(context, USERS.password.siteId);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const field = await page.getByLabel(/^Email/).boundingBox();
    expect(field?.width).toBeGreaterThan(280);
    await saveScreenshot(page, 'sign-in-login-form-phone');
    await context.close();
  });

  it('§8: a wrong password shows "Oops that wasn\'t the right combination." on the form without a reload', async () => {
    const context = await browser.newContext();
    const page = await openSignIn(context, USERS.password.siteId);
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    await submitCredentials(page, USERS.password.email, 'not-the-password-1A!');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain("Oops that wasn't the right combination.");
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(routeOf(page)).toBe('login-form');
    await saveScreenshot(page, 'sign-in-bad-credentials');
    await context.close();
  });

  it('signs in with a passcode by e-mail read from the dev outbox; a wrong code first shows the attempts left', async () => {
    const context = await browser.newContext();
    const seen = await outboxIds(context.request, portal.baseUrl, USERS.emailCode.email);
    const page = await openSignIn(context, USERS.emailCode.siteId);
    await submitCredentials(page, USERS.emailCode.email, USERS.emailCode.password);
    await endsOn(page, 'login-otp');
    expect(await page.getByText(/We sent a 6-digit passcode to your email/).textContent()).toMatch(/e\*+@example\.com/);
    await saveScreenshot(page, 'sign-in-login-otp-email');
    const code = await newPasscode(context.request, portal.baseUrl, USERS.emailCode.email, seen);

    const wrong = code === '000000' ? '111111' : '000000';
    await submitPasscode(page, wrong);
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/That passcode isn't correct\. You have \d+ attempts left\./);
    await saveScreenshot(page, 'sign-in-login-otp-wrong-code');

    await submitPasscode(page, code);
    await endsOn(page, 'profile');
    expect(await cookieNames(context)).toContain('SESSION');
    await context.close();
  });

  it('on a "choice" site the person picks SMS; the code arrives in the outbox for the phone', async () => {
    const context = await browser.newContext();
    const seen = await outboxIds(context.request, portal.baseUrl, USERS.choice.phone);
    const page = await openSignIn(context, USERS.choice.siteId);
    await submitCredentials(page, USERS.choice.email, USERS.choice.password);
    await endsOn(page, 'login-otp-preference');
    await page.getByRole('radio', { name: /^Text message to/ }).check();
    await saveScreenshot(page, 'sign-in-login-otp-preference');
    await page.getByRole('button', { name: 'Send passcode' }).click();
    await endsOn(page, 'login-otp');
    await page.getByText(/by text message to/).waitFor();
    const code = await newPasscode(context.request, portal.baseUrl, USERS.choice.phone, seen);
    await saveScreenshot(page, 'sign-in-login-otp-sms');
    await submitPasscode(page, code);
    await endsOn(page, 'profile');
    await context.close();
  });

  it('enrols TOTP (QR code and key), then signs in with a code computed per RFC 6238', async () => {
    const context = await browser.newContext();
    await signInForTest(context, portal.baseUrl, USERS.totp.email, USERS.totp.siteId);
    const page = await context.newPage();
    const cspViolations = collectCspViolations(page);
    await page.goto(url(USERS.totp.siteId, 'mfa-setup'));
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const qr = page.getByRole('img', { name: /QR code/ });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(await qr.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
    const groupedKey = (await page.getByTestId('totp-key').textContent()) ?? '';
    expect(groupedKey).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
    await saveScreenshot(page, 'sign-in-mfa-setup-qr');
    const secret = groupedKey.replace(/ /g, '');

    const gatewayNow = () => Date.now() / 1000 + clockOffsetSeconds;
    await page.getByLabel(/^Passcode/).fill(totpCode(secret, gatewayNow()));
    await page.getByRole('button', { name: 'Turn on two-step verification' }).click();
    // The backup codes come first, once (tests/e2e/backup-codes.test.ts).
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText(/^Two-step verification is on\./).waitFor();
    await saveScreenshot(page, 'sign-in-mfa-enrolled');
    expect(cspViolations).toEqual([]);

    // A step is never accepted twice (ADR 0008): the sign-in uses the next 30-second step.
    await advanceGatewayClock(context, portal.baseUrl, 30);
    clockOffsetSeconds += 30;
    await page.goto(url(USERS.totp.siteId, 'logout'));
    await endsOn(page, 'login-form');
    await submitCredentials(page, USERS.totp.email, USERS.totp.password);
    await endsOn(page, 'login-otp');
    await page.getByText('Enter the 6-digit code from your authenticator app.').waitFor();
    await saveScreenshot(page, 'sign-in-login-otp-totp');
    await submitPasscode(page, totpCode(secret, gatewayNow()));
    await endsOn(page, 'profile');
    await context.close();
  });

  it('a trusted device skips the passcode within 15 minutes and asks again after (gateway test clock)', async () => {
    const context = await browser.newContext();
    const signInWithCode = async (page: Page, trust: boolean) => {
      const seen = await outboxIds(context.request, portal.baseUrl, USERS.trusted.email);
      await submitCredentials(page, USERS.trusted.email, USERS.trusted.password);
      await endsOn(page, 'login-otp');
      await submitPasscode(page, await newPasscode(context.request, portal.baseUrl, USERS.trusted.email, seen), { trust });
      await endsOn(page, 'profile');
    };
    const page = await openSignIn(context, USERS.trusted.siteId);
    await signInWithCode(page, true);
    // §4/§9: the client mirrors the trust as otp_expiry = now + 15 min (epoch seconds).
    const otpExpiry = Number(await page.evaluate(() => window.localStorage.getItem('otp_expiry')));
    expect(otpExpiry - Date.now() / 1000).toBeGreaterThan(TRUSTED_DEVICE_SECONDS - 60);
    expect(otpExpiry - Date.now() / 1000).toBeLessThanOrEqual(TRUSTED_DEVICE_SECONDS);

    await page.goto(url(USERS.trusted.siteId, 'logout'));
    await endsOn(page, 'login-form');
    await advanceGatewayClock(context, portal.baseUrl, 10 * 60);
    clockOffsetSeconds += 10 * 60;
    await submitCredentials(page, USERS.trusted.email, USERS.trusted.password);
    await endsOn(page, 'profile'); // no passcode asked

    await page.goto(url(USERS.trusted.siteId, 'logout'));
    await endsOn(page, 'login-form');
    await advanceGatewayClock(context, portal.baseUrl, 6 * 60);
    clockOffsetSeconds += 6 * 60;
    await submitCredentials(page, USERS.trusted.email, USERS.trusted.password);
    await endsOn(page, 'login-otp'); // 16 minutes on: the trust is forgotten
    await context.close();
  });

  it(`warns before the last attempts, locks the account after ${WRONG_PASSWORDS_BEFORE_LOCK} wrong passwords and says until when; the right one is refused too`, async () => {
    const context = await browser.newContext();
    const page = await openSignIn(context, USERS.locked.siteId);
    const statuses: number[] = [];
    /** ADR 0008: plain "wrong" while more than 2 attempts are left, then counted down in the locale's plural forms. */
    const warnings: Record<number, RegExp> = {
      3: /You have 2 attempts left before your account is locked\./,
      4: /You have 1 attempt left before your account is locked\./,
    };
    for (let attempt = 1; attempt <= WRONG_PASSWORDS_BEFORE_LOCK + 1 && !statuses.includes(423); attempt += 1) {
      const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/user-auth/login');
      await submitCredentials(page, USERS.locked.email, `Wrong!Password${attempt}`);
      const response = await answered;
      statuses.push(response.status());
      if (response.status() === 423) {
        // The page says when the lock ends, as the page's locale writes a time.
        const lockedUntil = ((await response.json()) as { lockedUntil: string }).lockedUntil;
        const time = await page.evaluate((at) => new Intl.DateTimeFormat('en-US', { timeStyle: 'short' }).format(new Date(at)), lockedUntil);
        await expect.poll(() => page.getByRole('alert').textContent()).toContain(`After too many attempts your account is locked until ${time}.`);
      } else {
        await expect.poll(() => page.getByRole('alert').textContent()).toMatch(warnings[attempt] ?? /Oops that wasn't the right combination\./);
      }
    }
    // ADR 0008: wrong passwords answer 401 BAD_CREDENTIALS until the limit, then 423 USER_LOCKED.
    expect(statuses.slice(0, WRONG_PASSWORDS_BEFORE_LOCK - 1)).toEqual(Array(WRONG_PASSWORDS_BEFORE_LOCK - 1).fill(401));
    expect(statuses.at(-1)).toBe(423);
    await saveScreenshot(page, 'sign-in-user-locked');

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await submitCredentials(page, USERS.locked.email, USERS.locked.password);
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/locked/);
    expect(await cookieNames(context)).not.toContain('SESSION');
    await context.close();
  });

  it('§4 logout revokes the session, clears the cookies and local storage, and guards send the visitor to sign in', async () => {
    const context = await browser.newContext();
    await signInForTest(context, portal.baseUrl, USERS.password.email, USERS.password.siteId);
    const page = await context.newPage();
    await page.goto(url(USERS.password.siteId, 'profile'));
    await endsOn(page, 'profile');
    await page.evaluate(() => window.localStorage.setItem('otp_expiry', String(Math.floor(Date.now() / 1000) + 600)));
    await page.goto(url(USERS.password.siteId, 'logout'));
    await endsOn(page, 'login-form');
    await saveScreenshot(page, 'sign-in-after-logout');
    const names = await cookieNames(context);
    for (const name of ['SESSION', 'gmap_authenticated', 'gmap_user_type']) expect(names).not.toContain(name);
    expect(await page.evaluate(() => window.localStorage.getItem('otp_expiry'))).toBeNull();
    await page.goto(url(USERS.password.siteId, 'profile'));
    await endsOn(page, 'login-form');
    await context.close();
  });

  it.each([
    ['a valid returnurl is honoured', `/eurobank/en_us/account/cashback-statement`, 'cashback-statement'],
    ['an invalid (foreign) returnurl is ignored', 'https://evil.example/en_us/account/profile', 'profile'],
    ['an invalid (no locale segment) returnurl is ignored', '/account/cashback-statement', 'profile'],
  ])('§2 %s', async (_name, returnUrl, expected) => {
    const context = await browser.newContext();
    const page = await openSignIn(context, USERS.password.siteId, `?${new URLSearchParams({ returnurl: returnUrl }).toString()}`);
    await submitCredentials(page, USERS.password.email, USERS.password.password);
    await endsOn(page, expected);
    expect(new URL(page.url()).origin).toBe(portal.baseUrl);
    await context.close();
  });
});
