import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enUs from '../../fixtures/content/en_us.json';
import esCo from '../../fixtures/content/es_co.json';
import { expectNoAxeViolations } from './support/accessibility';
import { saveScreenshot } from './support/browser';
import { endsOn } from './support/navigation';
import { REPO_ROOT } from './support/paths';
import { browserTest, type PortalProcess } from './support/browser-test';
import { startPortal } from './support/portal-process';
import { signInForTest } from './support/test-session';

/**
 * ADR 0001 card settings in Chromium against the real gateway: on sabana (`capture_cvv` "true") the card
 * form asks the security code, refuses two digits next to the field before any call, and adds the card
 * with three, keeping the code in no storage; on firstbank (`check_card_active_status` "true") a card of
 * the BIN table's inactive range is refused next to the number with its own text; with
 * `six_digit_verification` "true" (firstbank's file changed in a copy of fixtures/) edit-profile's bin field asks six
 * digits under a label that names no other count, and the gateway refuses a prefix no eligible range covers.
 */
const es = esCo.cards as Record<string, string>;
const en = enUs.cards as Record<string, string>;
/** fixtures/bin-ranges.json: eligible, product C, in the range marked inactive. */
const INACTIVE = '4622 9400 0000 0007';
const CVV = '737';

let portal: PortalProcess;
let browser: Browser;

browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
  portal = filePortal;
  browser = fileBrowser;
});

async function openManageCards(email: string, siteId: string, locale: string): Promise<{ context: BrowserContext; page: Page; validationBodies: string[] }> {
  const context = await browser.newContext();
  await signInForTest(context, portal.baseUrl, email, siteId);
  const page = await context.newPage();
  const validationBodies: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/assets\/validation\?/.test(request.url())) validationBodies.push(request.postData() ?? '');
  });
  await page.goto(`${portal.baseUrl}/${siteId}/${locale}/account/edit-pan`);
  await endsOn(page, 'edit-pan');
  await page.locator('input[name="pan"]').waitFor();
  return { context, page, validationBodies };
}

describe('capture_cvv (sabana, es_co)', () => {
  it('shows the security code field; two digits are refused next to it, three add the card, and the code is kept nowhere', async () => {
    const { context, page, validationBodies } = await openManageCards('valentina.gomez@example.com', 'sabana', 'es_co');
    const cvv = page.getByLabel(es['cvv.label']!);
    await cvv.waitFor();
    expect(await cvv.getAttribute('inputmode')).toBe('numeric');
    expect(await cvv.getAttribute('autocomplete')).toBe('cc-csc');
    expect(await cvv.getAttribute('dir')).toBe('ltr');
    await page.getByText(es['cvv.hint']!).waitFor();

    await page.locator('input[name="pan"]').fill('4012 8888 8888 1881');
    await cvv.fill('12');
    await page.locator('.capture-block__submit').click();
    await page.locator('.card-cvv').getByRole('alert').filter({ hasText: es['cvv.invalid']! }).waitFor();
    expect(await cvv.getAttribute('aria-invalid')).toBe('true');
    // Refused in the browser: no call carried the short code.
    expect(validationBodies).toEqual([]);
    await saveScreenshot(page, 'card-settings-sabana-cvv-refused');
    await expectNoAxeViolations(page, 'cards: security code refused');

    await cvv.fill(CVV);
    await page.locator('.capture-block__submit').click();
    // sabana's own panAddSuccessMessage (fixtures/sites/sabana.json).
    await page.getByText('Tu tarjeta fue agregada.').waitFor();
    await expect.poll(async () => (await page.locator('.card-rows .card-row__number').allTextContents()).some((shown) => shown.endsWith('1881'))).toBe(true);
    // The code went to the validation call only, and the field was emptied once the card was added.
    expect(validationBodies).toHaveLength(1);
    expect(JSON.parse(validationBodies[0]!)).toEqual({ assetType: 'PAN', value: '4012888888881881', cvv: CVV });
    expect(await cvv.inputValue()).toBe('');
    const stored = await page.evaluate(() =>
      JSON.stringify({ local: { ...window.localStorage }, session: { ...window.sessionStorage }, cookie: document.cookie }),
    );
    expect(stored).not.toContain(CVV);
    await context.close();
  });
});

describe('check_card_active_status (firstbank, en_us)', () => {
  it('an inactive card is refused next to the number with its own text; firstbank asks no security code', async () => {
    const { context, page } = await openManageCards('emily.carter@example.com', 'firstbank', 'en_us');
    expect(await page.locator('input[name="cvv"]').count()).toBe(0);
    await page.locator('input[name="pan"]').fill(INACTIVE);
    await page.locator('.capture-block__submit').click();
    await page.locator('.card-number').getByRole('alert').filter({ hasText: en.notActive! }).waitFor();
    expect(await page.locator('input[name="pan"]').inputValue()).toBe(INACTIVE);
    expect((await page.locator('.card-rows .card-row__number').allTextContents()).some((shown) => shown.endsWith('0007'))).toBe(false);
    await saveScreenshot(page, 'card-settings-firstbank-inactive');
    await expectNoAxeViolations(page, 'cards: inactive card refused');
    await context.close();
  });
});

describe('six_digit_verification (firstbank with the setting on, en_us)', () => {
  let sixDigitPortal: PortalProcess;
  let fixturesCopy: string;

  beforeAll(async () => {
    // The setting is on in no bundled site with a bin field: a copy of fixtures/ turns it on for firstbank, as an author would.
    fixturesCopy = await mkdtemp(join(tmpdir(), 'fixtures-six-digit-'));
    await cp(`${REPO_ROOT}/fixtures`, fixturesCopy, { recursive: true });
    const file = join(fixturesCopy, 'sites', 'firstbank.json');
    const site = JSON.parse(await readFile(file, 'utf8')) as { siteFeatureConfigurations: Array<{ name: string; featureConfig: Record<string, string> }> };
    site.siteFeatureConfigurations.find((feature) => feature.name === 'user_enrollment')!.featureConfig.six_digit_verification = 'true';
    await writeFile(file, JSON.stringify(site, null, 2));
    sixDigitPortal = await startPortal({ GATEWAY_TEST_MODE: 'true', FIXTURES_DIR: fixturesCopy });
  });

  afterAll(async () => {
    await sixDigitPortal?.stop();
    await rm(fixturesCopy, { recursive: true, force: true });
  });

  it('edit-profile asks the first six digits; a prefix of no eligible range is refused next to the field by the gateway, an eligible one is saved', async () => {
    const context = await browser.newContext();
    await signInForTest(context, sixDigitPortal.baseUrl, 'emily.carter@example.com', 'firstbank');
    const page = await context.newPage();
    await page.goto(`${sixDigitPortal.baseUrl}/firstbank/en_us/account/profile`);
    await page.getByRole('link', { name: enUs.profile['link.edit-profile'] }).click();
    await endsOn(page, 'edit-profile');
    const bin = page.getByLabel(enUs.form['label.bin']);
    await bin.waitFor();
    expect(await page.getByText(enUs.form['label.ninedigitbin']).count()).toBe(0);

    // Nine digits typed: the six-slot mask keeps six.
    await bin.fill('');
    await bin.pressSequentially('444444999');
    expect(await bin.inputValue()).toBe('444444');
    // 444400-444499 is in the BIN table as not eligible: the browser cannot know, the gateway says so next to the field.
    await page.getByRole('button', { name: enUs.profile['edit.submit'] }).click();
    await page.locator('#root_ninedigitbin__error').filter({ hasText: enUs.form.binNotEligible }).waitFor();
    expect(await bin.getAttribute('aria-invalid')).toBe('true');
    expect(await bin.inputValue()).toBe('444444');
    await saveScreenshot(page, 'card-settings-six-digit-refused');
    await expectNoAxeViolations(page, 'edit profile: six-digit bin refused');

    await bin.fill('');
    await bin.pressSequentially('424242');
    await page.getByRole('button', { name: enUs.profile['edit.submit'] }).click();
    await endsOn(page, 'profile');
    await page.getByText(enUs.profile['edit.saved']).waitFor();
    await context.close();
  });
});
