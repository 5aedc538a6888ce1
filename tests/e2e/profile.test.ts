import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import arQa from '../../fixtures/content/ar_qa.json';
import enUs from '../../fixtures/content/en_us.json';
import ptBr from '../../fixtures/content/pt_br.json';
import { expectNoAxeViolations } from './support/accessibility';
import { collectCspViolations, saveScreenshot } from './support/browser';
import { browserTest, type PortalProcess } from './support/browser-test';
import { totpCode } from './support/sign-in-helpers';
import { signInForTest } from './support/test-session';
import { endsOn, routeOf } from './support/navigation';

/**
 * The profile screens in Chromium against the real gateway and database (ADR 0010) on the US, Brazilian
 * and Qatar sites, each in its language, as a seeded demo user: the profile view, edit-profile with
 * the site's own fields (an invalid value refused with its message, in the browser and by the
 * gateway when the browser is bypassed), marketing opt-ins (with "All of the above" where the site
 * offers it), offer preferences and the cashback statement, each value still there after a reload;
 * and the SPEC §6 profile-update guard on northbank. Fields are found by their ids (`root_…`) and
 * texts by the site's content, so one test reads every language. Each screen state is checked with
 * axe-core against WCAG 2.2 A/AA (DESIGN: every screen passes axe with no violations).
 */
type Locale = 'en_us' | 'pt_br' | 'ar_qa';
const CONTENT: Record<Locale, Record<string, Record<string, string>>> = { en_us: enUs, pt_br: ptBr, ar_qa: arQa };

function t(locale: Locale, group: string, key: string): string {
  const value = CONTENT[locale][group]?.[key];
  if (value === undefined) throw new Error(`no content ${locale} ${group}.${key}`);
  return value;
}

interface SiteVisit {
  siteId: string;
  locale: Locale;
  email: string;
  /** SPEC §2 mfa-setup first: the site requires an authenticator (dohabank). */
  mfaRequired: boolean;
  /** The site's own field: typed digits, as its mask shows them, and as the profile reads them back. */
  phone: { digits: string; shown: string };
  /** Another of the site's own fields, changed and read back after a reload. */
  fillOwnFields(page: Page): Promise<void>;
  checkOwnFields(page: Page): Promise<void>;
  /** The cards of the seeded cashback statement (fixtures/cashback). */
  statementCard: string;
}

const FIRSTBANK: SiteVisit = {
  siteId: 'firstbank',
  locale: 'en_us',
  email: 'emily.carter@example.com',
  mfaRequired: false,
  phone: { digits: '2125550123', shown: '(212) 555-0123' },
  async fillOwnFields(page) {
    await page.locator('#root_address_city').fill('Arlington');
    await fillMasked(page, '#root_address_zipcode', '22201', '22201');
  },
  async checkOwnFields(page) {
    expect(await detail(page, 'address')).toBe('Arlington\n22201');
    // SPEC §3 masked national id: the last digits only.
    expect(await detail(page, 'nationalId')).toBe('•••-••-4189');
  },
  statementCard: '1111',
};

const BANCOSOL: SiteVisit = {
  siteId: 'bancosol',
  locale: 'pt_br',
  email: 'ana.souza@example.com',
  mfaRequired: false,
  phone: { digits: '21998765432', shown: '(21) 99876-5432' },
  async fillOwnFields(page) {
    await page.locator('#root_address_neighborhood').fill('Copacabana');
    await fillMasked(page, '#root_address_zipcode', '22070002', '22070-002');
  },
  async checkOwnFields(page) {
    expect(await detail(page, 'address')).toBe('Avenida Paulista, 1578\nApto 42\nCopacabana\nSão Paulo, SP\n22070-002');
    expect(await detail(page, 'nationalId')).toMatch(/^•••\.•••\.•\d\d-\d\d$/);
  },
  statementCard: '5556',
};

const DOHABANK: SiteVisit = {
  siteId: 'dohabank',
  locale: 'ar_qa',
  email: 'mariam.alkuwari@example.com',
  mfaRequired: true,
  phone: { digits: '66123456', shown: '6612 3456' },
  async fillOwnFields(page) {
    await page.locator('#root_gender').selectOption('female');
  },
  async checkOwnFields(page) {
    expect(await detail(page, 'gender')).toBe(t('ar_qa', 'form', 'gender.female'));
  },
  statementCard: '1881',
};

/** Decimal digits of any script but Latin (Arabic-Indic ١٢, Extended Arabic-Indic ۱۲, Devanagari …). */
const NON_LATIN_DIGITS = /(?![0-9])\p{Nd}/u;

async function fillMasked(page: Page, selector: string, typed: string, shown: string): Promise<void> {
  await page.locator(selector).fill(typed);
  expect(await page.locator(selector).inputValue()).toBe(shown);
}

/** A row of the profile's details list (ProfileDetails `data-field`). */
async function detail(page: Page, field: string): Promise<string> {
  return ((await page.locator(`[data-field="${field}"] dd`).textContent()) ?? '').trim();
}

describe('profile, opt-ins, offer preferences and cashback in Chromium against the gateway (SPEC §2, §3, §6; ADR 0010)', () => {
  let portal: PortalProcess;
  let browser: Browser;

  browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
    portal = filePortal;
    browser = fileBrowser;
  });

  const url = (site: Pick<SiteVisit, 'siteId' | 'locale'>, route: string) => `${portal.baseUrl}/${site.siteId}/${site.locale}/account/${route}`;

  async function openProfile(context: BrowserContext, site: SiteVisit): Promise<Page> {
    await signInForTest(context, portal.baseUrl, site.email, site.siteId);
    const page = await context.newPage();
    await page.goto(url(site, 'profile'));
    if (site.mfaRequired) {
      // The site requires an authenticator before anything else (route guard mfaRequired).
      await endsOn(page, 'mfa-setup');
      await page.getByRole('button', { name: t(site.locale, 'signIn', 'mfa.start') }).click();
      const secret = ((await page.getByTestId('totp-key').textContent()) ?? '').replace(/ /g, '');
      await page.locator('#root_passcode').fill(totpCode(secret, Date.now() / 1000));
      await page.getByRole('button', { name: t(site.locale, 'signIn', 'mfa.enroll') }).click();
      await page.getByRole('button', { name: t(site.locale, 'signIn', 'mfa.codes.saved') }).click();
      await page
        .getByText(t(site.locale, 'signIn', 'mfa.enrolledNow').slice(0, 10))
        .first()
        .waitFor();
      await page.goto(url(site, 'profile'));
    }
    await endsOn(page, 'profile');
    await page.locator('.profile-details').waitFor();
    return page;
  }

  async function xsrfHeader(context: BrowserContext): Promise<Record<string, string>> {
    const xsrf = (await context.cookies(portal.baseUrl)).find((cookie) => cookie.name === 'XSRF-TOKEN')?.value;
    return xsrf ? { 'X-XSRF-TOKEN': xsrf } : {};
  }

  it.each([FIRSTBANK, BANCOSOL, DOHABANK])(
    '$siteId ($locale): view, edit, opt-ins, offer preferences and statement, each kept after a reload',
    async (site) => {
      const context = await browser.newContext();
      const page = await openProfile(context, site);
      const cspViolations = collectCspViolations(page);
      const { locale } = site;

      // Profile view: the §3 profile, the site's attributes, the links the site allows.
      await page.getByRole('heading', { name: t(locale, 'profile', 'details.title') }).waitFor();
      expect(await page.locator('html').getAttribute('dir')).toBe(locale === 'ar_qa' ? 'rtl' : 'ltr');
      // One digit system per page (schemas/locales/intl-format.ts): the date of birth in the digits of the phone.
      expect(await page.locator('main').textContent()).not.toMatch(NON_LATIN_DIGITS);
      await saveScreenshot(page, `profile-view-${site.siteId}`);
      await expectNoAxeViolations(page, `profile view (${site.siteId})`);

      // Edit profile: an invalid value is refused next to its field, in the browser…
      await page.getByRole('link', { name: t(locale, 'profile', 'link.edit-profile') }).click();
      await endsOn(page, 'edit-profile');
      await page.locator('#root_last_name').fill('Bad<Name>');
      await page.getByRole('button', { name: t(locale, 'profile', 'edit.submit') }).click();
      await expect.poll(() => page.locator('#root_last_name').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#root_last_name__error').textContent()).toBe(t(locale, 'form', 'error'));
      await saveScreenshot(page, `profile-edit-invalid-${site.siteId}`);
      await expectNoAxeViolations(page, `edit profile with an invalid value (${site.siteId})`);
      expect(routeOf(page)).toBe('edit-profile');
      // …and by the gateway when the browser is bypassed (ADR 0010: the same site schema, a JSON error naming the field).
      const bypass = await context.request.post(`${portal.baseUrl}/api/user-attribute/v2/user/${site.siteId}`, {
        data: { attributes: { last_name: 'Bad<Name>' } },
        headers: { ...(await xsrfHeader(context)), 'X-SITE-ID': site.siteId },
      });
      expect(bypass.status()).toBe(400);
      expect(await bypass.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { last_name: expect.any(String) } });

      // A valid edit of the site's own fields: saved, notice, shown on the profile, kept after a reload.
      const lastName = `Tester${site.locale.slice(0, 2)}`;
      await page.locator('#root_last_name').fill(lastName);
      await fillMasked(page, '#root_phone', site.phone.digits, site.phone.shown);
      await site.fillOwnFields(page);
      await saveScreenshot(page, `profile-edit-${site.siteId}`);
      await page.getByRole('button', { name: t(locale, 'profile', 'edit.submit') }).click();
      await endsOn(page, 'profile');
      await page.getByText(t(locale, 'profile', 'edit.saved')).waitFor();
      await expectNoAxeViolations(page, `profile with the saved notice (${site.siteId})`);
      await page.reload();
      await page.locator('.profile-details').waitFor();
      expect(await detail(page, 'last_name')).toBe(lastName);
      expect(await detail(page, 'phone')).toBe(site.phone.shown);
      await site.checkOwnFields(page);
      expect(await page.locator('.profile-summary__name').textContent()).toContain(lastName);

      // Marketing opt-ins: one cleared, then all ticked by "All of the above" where the site offers it (else box by box);
      // each saved and kept after a reload.
      const optIns = page.locator('.optins .check:not(.check--all) input[type="checkbox"]');
      const saveOptIns = async () => {
        await page.getByRole('button', { name: t(locale, 'optins', 'save') }).click();
        await page.getByText(t(locale, 'optins', 'saved')).waitFor();
        await page.reload();
        await optIns.first().waitFor();
      };
      await optIns.first().uncheck();
      await saveOptIns();
      expect(await optIns.first().isChecked()).toBe(false);
      const allOfTheAbove = page.getByLabel(t(locale, 'optins', 'allOfTheAbove'));
      if ((await allOfTheAbove.count()) > 0) await allOfTheAbove.check();
      else for (const box of await optIns.all()) await box.check();
      for (const box of await optIns.all()) expect(await box.isChecked()).toBe(true);
      await saveScreenshot(page, `profile-optins-${site.siteId}`);
      await expectNoAxeViolations(page, `marketing opt-ins (${site.siteId})`);
      await saveOptIns();
      for (const box of await optIns.all()) expect(await box.isChecked()).toBe(true);

      // Offer preferences (site-settings): two categories chosen, kept after a reload.
      await page.getByRole('link', { name: t(locale, 'profile', 'link.site-settings') }).click();
      await endsOn(page, 'site-settings');
      const categories = page.locator('.site-form input[type="checkbox"]');
      await categories.first().waitFor();
      for (const box of await categories.all()) await box.uncheck();
      await categories.nth(0).check();
      await categories.nth(2).check();
      await page.getByRole('button', { name: t(locale, 'profile', 'settings.submit') }).click();
      await page.getByText(t(locale, 'profile', 'settings.saved')).waitFor();
      await saveScreenshot(page, `profile-site-settings-${site.siteId}`);
      await expectNoAxeViolations(page, `offer preferences (${site.siteId})`);
      await page.reload();
      await categories.first().waitFor();
      expect(await Promise.all((await categories.all()).map((box) => box.isChecked()))).toEqual(
        (await categories.all()).map((_box, index) => index === 0 || index === 2),
      );

      // Cashback statement: the seeded lines of the card, masked, with status badges in §3's colours.
      await page.goto(url(site, 'cashback-statement'));
      await page.locator('.statement-table').first().waitFor();
      expect(await page.locator('.statement-card__number').first().textContent()).toBe(`XXXX XXXX XXXX ${site.statementCard}`);
      for (const status of ['ELIGIBLE', 'NOT_ELIGIBLE', 'PENDING'])
        await page
          .locator('td .badge', { hasText: t(locale, 'cards', `cashback.${status}`) })
          .first()
          .waitFor();
      expect(await page.locator('body').textContent()).not.toMatch(/\d{16}/);
      // Its dates, amounts and counts in the digits of the card numbers beside them.
      expect(await page.locator('main').textContent()).not.toMatch(NON_LATIN_DIGITS);
      await saveScreenshot(page, `profile-cashback-${site.siteId}`);
      await expectNoAxeViolations(page, `cashback statement (${site.siteId})`);

      expect(cspViolations).toEqual([]);
      await context.close();
    },
  );

  it('two windows (ADR 0010 "Saving only what changed"): different fields both kept; the same field changed in both is said, never overwritten silently', async () => {
    const context = await browser.newContext();
    const first = await openProfile(context, FIRSTBANK);
    const second = await context.newPage();
    for (const page of [first, second]) {
      await page.goto(url(FIRSTBANK, 'edit-profile'));
      await page.locator('#root_last_name').waitFor();
    }
    const submit = (page: Page) => page.getByRole('button', { name: t('en_us', 'profile', 'edit.submit') }).click();

    await first.locator('#root_last_name').fill('Window-One');
    await submit(first);
    await endsOn(first, 'profile');
    await fillMasked(second, '#root_phone', '3035550188', '(303) 555-0188');
    await submit(second);
    await endsOn(second, 'profile');
    await second.reload();
    await second.locator('.profile-details').waitFor();
    expect(await detail(second, 'last_name')).toBe('Window-One');
    expect(await detail(second, 'phone')).toBe('(303) 555-0188');

    // Both open the form at the same version and change the last name: the later save is refused with the other window's value shown.
    for (const page of [first, second]) {
      await page.goto(url(FIRSTBANK, 'edit-profile'));
      await page.locator('#root_last_name').waitFor();
    }
    await first.locator('#root_last_name').fill('From-First');
    await submit(first);
    await endsOn(first, 'profile');
    await second.locator('#root_last_name').fill('From-Second');
    await submit(second);
    await second.getByText(t('en_us', 'profile', 'edit.changedElsewhere')).waitFor();
    expect(await second.locator('#root_last_name').inputValue()).toBe('From-First');
    expect(routeOf(second)).toBe('edit-profile');
    await saveScreenshot(second, 'profile-edit-conflict-firstbank');
    await expectNoAxeViolations(second, 'edit profile with the changed-elsewhere message (firstbank)');
    await context.close();
  });

  it('northbank (pan_capture updatable "false"): edit-profile redirects to the profile, which offers no edit link (SPEC §6)', async () => {
    const northbank = { siteId: 'northbank', locale: 'en_us' as const };
    const context = await browser.newContext();
    await signInForTest(context, portal.baseUrl, 'sophie.tremblay@example.com', northbank.siteId);
    const page = await context.newPage();
    await page.goto(url(northbank, 'edit-profile'));
    await endsOn(page, 'profile');
    await page.locator('.profile-links').waitFor();
    expect(await page.getByRole('link', { name: t('en_us', 'profile', 'link.edit-profile') }).count()).toBe(0);
    // ADR 0010: the gateway refuses the profile call there too.
    const bypass = await context.request.post(`${portal.baseUrl}/api/user-attribute/v2/user/${northbank.siteId}`, {
      data: { attributes: { last_name: 'Tremblay' } },
      headers: { ...(await xsrfHeader(context)), 'X-SITE-ID': northbank.siteId },
    });
    expect(bypass.status()).toBe(403);
    await saveScreenshot(page, 'profile-view-northbank');
    await expectNoAxeViolations(page, 'profile view without an edit link (northbank)');
    await context.close();
  });
});
