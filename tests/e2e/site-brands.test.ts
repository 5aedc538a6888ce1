import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import arQa from '../../fixtures/content/ar_qa.json';
import enUs from '../../fixtures/content/en_us.json';
import esCo from '../../fixtures/content/es_co.json';
import { expectNoAxeViolations } from './support/accessibility';
import { saveScreenshot } from './support/browser';
import { browserTest, type PortalProcess } from './support/browser-test';

// This file's gateway runs without the test hooks (GATEWAY_TEST_MODE), as a plain development start does.
browserTest.override('portalEnv', {});

/**
 * SPEC §3 theme and cms tenant, docs/decisions/0020-site-themes-and-brands.md: a site's brand
 * colours reach its pages through the gateway's stylesheet under the strict CSP (the e2e setup
 * fails a test on any violation), the vpp theme is the form layout without a carousel, and the
 * carousel of the other sites is pausable, still under prefers-reduced-motion, keyboard-usable and
 * axe-clean. Screenshots of three branded sites in their languages at phone and desktop widths.
 */
const CAROUSEL = { en_us: enUs.carousel, es_co: esCo.carousel, ar_qa: arQa.carousel };
/** The carousel and its slides as a screen reader names them, in the page's language (from content). */
const carouselSelector = (locale: keyof typeof CAROUSEL) => `section[aria-roledescription="${CAROUSEL[locale].roleDescription}"]`;
const slideSelector = (locale: keyof typeof CAROUSEL) => `[aria-roledescription="${CAROUSEL[locale].slideRoleDescription}"]`;

let portal: PortalProcess;
let browser: Browser;

browserTest.beforeAll(async ({ portal: filePortal, browser: fileBrowser }) => {
  portal = filePortal;
  browser = fileBrowser;
});

const loginUrl = (siteId: string, locale: string) => `${portal.baseUrl}/${siteId}/${locale}/account/login-form`;

async function openLogin(siteId: string, locale: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await page.goto(loginUrl(siteId, locale));
  await page.locator('#root_username').waitFor();
  return page;
}

const submitBackground = (page: Page) => page.locator('.site-form button[type="submit"]').evaluate((button) => getComputedStyle(button).backgroundColor);
const headerBackground = (page: Page) => page.locator('.shell__header').evaluate((header) => getComputedStyle(header).backgroundColor);

describe('site brands (ADR 0020)', () => {
  it("firstbank's primary button and header take its primary colour #0b3d91, and its logo loads from the build", async () => {
    const page = await openLogin('firstbank', 'en_us');
    await expect.poll(() => submitBackground(page)).toBe('rgb(11, 61, 145)');
    expect(await headerBackground(page)).toBe('rgb(11, 61, 145)');
    const logo = page.locator('header img.shell__logo');
    expect(await logo.getAttribute('src')).toBe('/brands/firstbank.svg');
    await expect.poll(() => logo.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(await page.locator('header').innerText()).toContain('FirstBank Rewards');
    await page.context().close();
  });

  it('sabana and dohabank each show their own colour; northbank, without a brand, keeps the theme colour', async () => {
    for (const [siteId, locale, colour] of [
      ['sabana', 'es_co', 'rgb(0, 102, 78)'],
      ['dohabank', 'ar_qa', 'rgb(122, 26, 58)'],
      ['northbank', 'fr_ca', 'rgb(26, 31, 113)'],
    ] as const) {
      const page = await openLogin(siteId, locale);
      await expect.poll(() => submitBackground(page), { message: siteId }).toBe(colour);
      await page.context().close();
    }
  });

  it('vppcards (theme vpp, cms tenant vpp) has the form layout: a light header, no carousel', async () => {
    const page = await openLogin('vppcards', 'en_gb');
    expect(await page.locator('body').getAttribute('data-theme')).toBe('vpp');
    await expect.poll(() => headerBackground(page)).toBe('rgb(255, 255, 255)');
    await expect.poll(() => submitBackground(page)).toBe('rgb(20, 52, 203)');
    expect(await page.locator('section.carousel').count()).toBe(0);
    await expectNoAxeViolations(page, 'vppcards sign-in (form layout)');
    await page.context().close();
  });

  it('three banks side by side: firstbank (en_us), sabana (es_co) and dohabank (ar_qa) at 390 and 1280 px', async () => {
    for (const [siteId, locale] of [
      ['firstbank', 'en_us'],
      ['sabana', 'es_co'],
      ['dohabank', 'ar_qa'],
      ['vppcards', 'en_gb'],
    ] as const) {
      for (const width of [390, 1280]) {
        const page = await openLogin(siteId, locale, { viewport: { width, height: 900 }, reducedMotion: 'reduce' });
        await page.locator('header img.shell__logo').evaluate((image) => (image as HTMLImageElement).decode());
        // The page fits its width: nothing scrolls sideways.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await saveScreenshot(page, `brand-${siteId}-${locale}-${width}`);
        await page.context().close();
      }
    }
  });
});

describe('SPEC §3 carousel of a site whose cms tenant is not vpp (WAI-ARIA APG carousel)', () => {
  it('is labelled as a carousel of slides, axe-clean, and moves on by itself until paused', async () => {
    const page = await openLogin('sabana', 'es_co', { reducedMotion: 'no-preference' });
    const carousel = page.locator(carouselSelector('es_co'));
    expect(await carousel.getAttribute('aria-label')).toBe(CAROUSEL.es_co.label);
    const slides = carousel.locator(slideSelector('es_co'));
    expect(await slides.count()).toBe(3);
    expect(await slides.nth(0).getAttribute('aria-label')).toBe('1 de 3');
    expect(await carousel.locator(`${slideSelector('es_co')}:visible h2`).innerText()).toBe(CAROUSEL.es_co['slide.1.title']);
    await expectNoAxeViolations(page, 'sabana sign-in with the carousel');

    // It rotates (every 7 s) while nothing is on it; the slides are then not a live region.
    expect(await carousel.locator('.carousel__slides').getAttribute('aria-live')).toBe('off');
    await expect.poll(() => carousel.locator(`${slideSelector('es_co')}:visible h2`).innerText(), { timeout: 12_000 }).toBe(CAROUSEL.es_co['slide.2.title']);

    await carousel.getByRole('button', { name: CAROUSEL.es_co.pause }).click();
    await page.mouse.move(0, 0);
    await page.locator('#root_username').focus();
    expect(await carousel.locator('.carousel__slides').getAttribute('aria-live')).toBe('polite');
    await carousel.getByRole('button', { name: CAROUSEL.es_co.play }).waitFor();
    await expectNoAxeViolations(page, 'sabana carousel paused');
    await page.context().close();
  });

  it('stays still under prefers-reduced-motion, and is worked with the keyboard alone', async () => {
    const page = await openLogin('firstbank', 'en_us', { reducedMotion: 'reduce' });
    const carousel = page.locator(carouselSelector('en_us'));
    const visibleTitle = () => carousel.locator(`${slideSelector('en_us')}:visible h2`).innerText();
    // Still: offered to play, not playing, and announced politely when a control changes the slide.
    const rotation = carousel.getByRole('button', { name: CAROUSEL.en_us.play });
    await rotation.waitFor();
    expect(await carousel.locator('.carousel__slides').getAttribute('aria-live')).toBe('polite');

    // The keyboard reaches rotation, previous, each slide of the picker and next, in that order.
    await rotation.focus();
    const order: string[] = [];
    for (let step = 0; step < 6; step++) {
      // The name a screen reader reads: aria-label, else the text without the hidden icon.
      order.push(
        await page.evaluate(() => {
          const focused = document.activeElement;
          if (!focused) return '';
          const visibleText = [...focused.childNodes].filter((node) => !(node instanceof Element && node.getAttribute('aria-hidden') === 'true'));
          return focused.getAttribute('aria-label') ?? visibleText.map((node) => node.textContent).join('');
        }),
      );
      await page.keyboard.press('Tab');
    }
    expect(order).toEqual([CAROUSEL.en_us.play, CAROUSEL.en_us.previous, 'Slide 1', 'Slide 2', 'Slide 3', CAROUSEL.en_us.next]);

    await carousel.getByRole('button', { name: CAROUSEL.en_us.next }).focus();
    await page.keyboard.press('Enter');
    expect(await visibleTitle()).toBe(CAROUSEL.en_us['slide.2.title']);
    await carousel.getByRole('button', { name: 'Slide 3' }).focus();
    await page.keyboard.press('Space');
    expect(await visibleTitle()).toBe(CAROUSEL.en_us['slide.3.title']);
    expect(await carousel.getByRole('button', { name: 'Slide 3' }).getAttribute('aria-current')).toBe('true');
    await carousel.getByRole('button', { name: CAROUSEL.en_us.next }).focus();
    await page.keyboard.press('Enter');
    expect(await visibleTitle()).toBe(CAROUSEL.en_us['slide.1.title']);
    await carousel.getByRole('button', { name: CAROUSEL.en_us.previous }).focus();
    await page.keyboard.press('Enter');
    expect(await visibleTitle()).toBe(CAROUSEL.en_us['slide.3.title']);

    // Nothing moves by itself: after longer than a rotation the same slide shows.
    await page.waitForTimeout(8_000);
    expect(await visibleTitle()).toBe(CAROUSEL.en_us['slide.3.title']);
    await expectNoAxeViolations(page, 'firstbank carousel under reduced motion');
    await page.context().close();
  });

  it('shows on registration too, in the right-to-left Arabic page', async () => {
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${portal.baseUrl}/dohabank/ar_qa/account/registration`);
    const carousel = page.locator(carouselSelector('ar_qa'));
    await carousel.waitFor();
    expect(await carousel.getAttribute('aria-label')).toBe(CAROUSEL.ar_qa.label);
    await expectNoAxeViolations(page, 'dohabank registration with the carousel');
    await context.close();
  });
});
