import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonSchema, UiSchema } from '../../../../schemas/forms/json-schema';
import { listSiteFixtures } from '../../../support/site-fixtures';
import { expectNoAxeViolations } from '../accessibility';
import { activationLink } from '../account-helpers';
import { collectCspViolations, launchChromium, saveScreenshot } from '../browser';
import { cookieValue, endsOn, routeOf } from '../navigation';
import type { PortalProcess } from '../portal-process';
import { totpCode } from '../sign-in-helpers';
import { JOURNEY_DOB, JOURNEY_PASSWORD, textValueFor } from './field-values';
import { contentText, JOURNEY_LOCALE, journeySiteOf, type JourneySite } from './journey-site';
import { outboxIdsOf, passcodeTo } from './passcodes';
import { eligibleTestCards, groupedCard } from './test-cards';

/**
 * Issue 11 items 1 and 2: every site found in fixtures/sites (a new fixture is covered with no test
 * edit), each through its whole journey in Chromium against a real target, driven only by what its
 * configuration says (read through `schemas/`, as the app and the gateway read it): registration
 * with the site's own fields (SPEC §3, §5), add-pan when it captures cards at sign-up, activation
 * from the mailed link, sign-in with the site's passcode step or SSO (SPEC §2, §4), profile edit
 * or its refusal (§6 updatable), cards as its limit and update flag allow (§2, §4, §5), marketing
 * opt-ins (§3) and sign-out. axe-core (WCAG 2.2 A/AA) on every screen the journey reaches, and no
 * CSP violation. All state lives in the target (its database and its dev outbox, read through
 * `target.baseUrl`), so the same matrix runs against one embedded gateway or several behind one port.
 */
export function defineSiteJourneyMatrix(label: string, startTarget: () => Promise<PortalProcess>): void {
  describe(`every site, every journey (${label})`, () => {
    let target: PortalProcess;
    let browser: Browser;
    const runId = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

    beforeAll(async () => {
      target = await startTarget();
      browser = await launchChromium();
    });

    afterAll(async () => {
      await browser?.close();
      await target?.stop();
    });

    for (const site of listSiteFixtures()) {
      const journey = journeySiteOf(site);
      describe(`${journey.siteId}${journey.sso ? ' (SSO)' : ''}`, () => {
        const state: JourneyState = { context: null, page: null, cspViolations: [], broken: false, email: `journey.${journey.siteId.replace(/_/g, '-')}.${runId}@example.com`, phoneDigits: null };
        const url = (route: string) => `${target.baseUrl}/${journey.siteId}/${JOURNEY_LOCALE}/account/${route}`;
        const page = (): Page => {
          if (state.page === null) throw new Error('an earlier step of this journey failed');
          return state.page;
        };
        /** Every screen: axe-core with the WCAG 2.2 A/AA rules, and a screenshot of the main ones. */
        const checkScreen = async (screen: string, screenshot = false) => {
          await expectNoAxeViolations(page(), `${journey.siteId} ${screen}`);
          if (screenshot) await saveScreenshot(page(), `journey-${journey.siteId}-${screen}`);
        };

        /**
         * One step of the journey: each needs the ones before it, so after a failure the rest fail at
         * once (naming the cause) instead of waiting out their timeouts; the failing screen is kept.
         */
        const step = (title: string, body: () => Promise<void>) =>
          it(title, async () => {
            if (state.broken) throw new Error('an earlier step of this journey failed');
            try {
              await body();
            } catch (error) {
              state.broken = true;
              if (state.page) await saveScreenshot(state.page, `journey-${journey.siteId}-failure`).catch(() => undefined);
              throw error;
            }
          });

        beforeAll(async () => {
          state.context = await browser.newContext();
          state.page = await state.context.newPage();
          state.cspViolations = collectCspViolations(state.page);
        });

        afterAll(async () => {
          await state.context?.close();
        });

        if (journey.sso) {
          step('signs in through redirect-sso, the test identity provider and its identity picker, and lands on the profile (SPEC §2 SSO)', async () => {
            await page().goto(url('profile'));
            await endsOn(page(), 'redirect-sso');
            await checkScreen('login', true);
            await page().getByRole('button', { name: contentText('sso', 'continue') }).click();
            await endsOn(page(), 'sso-simulator');
            await page().getByRole('radio').first().waitFor();
            await checkScreen('sso-simulator');
            await page().getByRole('radio').first().check();
            await page().getByRole('button', { name: contentText('sso', 'simulator.submit') }).click();
            await endsOn(page(), 'profile');
            expect(await cookieValue(state.context!, target.baseUrl, 'gmap_authenticated')).toBe('true');
            expect(state.cspViolations).toEqual([]);
          });
        } else {
          step('registers with its own fields (and cards when it captures them at sign-up) and activates from the mailed link', async () => {
            const request = state.context!.request;
            const seen = await outboxIdsOf(request, target.baseUrl, [state.email]);
            await page().goto(url('registration'));
            await endsOn(page(), 'registration');
            await page().locator('.site-form').waitFor();
            state.phoneDigits = await fillForm(page(), journey.registration.schema, journey.registration.uiSchema, state.email);
            await checkScreen('registration', true);
            await page().locator('.site-form button[type="submit"]').first().click();

            if (journey.panAtSignUp === 'Mandatory' || journey.panAtSignUp === 'Optional') {
              // SPEC §2 add-pan: one card from the site's BIN ranges, listed masked (SPEC §5).
              await endsOn(page(), 'add-pan');
              const [card] = eligibleTestCards(journey.siteId, 1);
              await addCardInCaptureBlock(page(), card!);
              await expect.poll(() => page().locator('.card-rows .card-row__number').allTextContents()).toEqual([`XXXX XXXX XXXX ${card!.slice(-4)}`]);
              await checkScreen('add-pan', true);
              await page().getByRole('button', { name: contentText('account', 'addPan.submit'), exact: true }).click();
            }
            await page().getByRole('heading', { name: contentText('account', 'checkEmail.title') }).waitFor();
            await checkScreen('check-email');

            const link = await activationLink(request, target.baseUrl, state.email, seen);
            expect(new URL(link).pathname).toBe(`/${journey.siteId}/${JOURNEY_LOCALE}/account/activate`);
            await page().goto(link);
            await page().getByText(contentText('account', 'activate.success')).waitFor();
            await checkScreen('activated');
            expect(state.cspViolations).toEqual([]);
          });

          step(`signs in${journey.loginOtp === 'none' ? '' : ` with a one-time passcode (login_otp ${journey.loginOtp})`}${journey.mfaRequired ? ', sets up the required authenticator' : ''} and lands on the profile`, async () => {
            const request = state.context!.request;
            const destinations = [state.email, ...(state.phoneDigits ? [state.phoneDigits] : [])];
            await page().goto(url('login-form'));
            await endsOn(page(), 'login-form');
            await page().locator('#root_username').waitFor();
            await checkScreen('login', true);
            let seen = await outboxIdsOf(request, target.baseUrl, destinations);
            await page().locator('#root_username').fill(state.email);
            await page().locator('#root_password').fill(JOURNEY_PASSWORD);
            await page().locator('.site-form button[type="submit"]').first().click();
            // The site's steps after the password, in the order the gateway asks for them (SPEC §2, ADR 0008).
            const steps: string[] = [];
            for (;;) {
              await expect.poll(() => routeOf(page()), { timeout: 15_000 }).toMatch(/^(login-otp-preference|login-otp|mfa-setup|profile)$/);
              const route = routeOf(page());
              steps.push(route);
              await endsOn(page(), route);
              if (route === 'profile') break;
              if (steps.length > 4) throw new Error(`sign-in went round: ${steps.join(' → ')}`);
              if (route === 'login-otp-preference') {
                await page().getByRole('radio').first().waitFor();
                await checkScreen('login-otp-preference');
                seen = await outboxIdsOf(request, target.baseUrl, destinations);
                await page().getByRole('radio', { name: new RegExp(`^${contentText('signIn', 'preference.email').split('{{')[0]!.trim()}`) }).check();
                await page().getByRole('button', { name: contentText('signIn', 'preference.submit') }).click();
                await expect.poll(() => routeOf(page()), { timeout: 15_000 }).not.toBe('login-otp-preference');
              } else if (route === 'login-otp') {
                await page().locator('#root_otp').waitFor();
                await checkScreen('login-otp');
                await page().locator('#root_otp').fill(await passcodeTo(request, target.baseUrl, destinations, seen));
                await page().locator('.site-form button[type="submit"]').first().click();
                await expect.poll(() => routeOf(page()), { timeout: 15_000 }).not.toBe('login-otp');
              } else {
                await page().getByRole('button', { name: contentText('signIn', 'mfa.start') }).click();
                const secret = ((await page().getByTestId('totp-key').textContent()) ?? '').replace(/ /g, '');
                await checkScreen('mfa-setup');
                await page().locator('#root_passcode').fill(totpCode(secret, Date.now() / 1000));
                await page().getByRole('button', { name: contentText('signIn', 'mfa.enroll') }).click();
                await page().getByRole('button', { name: contentText('signIn', 'mfa.codes.saved') }).click();
                await page().getByText(contentText('signIn', 'mfa.enrolledNow')).first().waitFor();
                await page().goto(url('profile'));
              }
            }
            expect(steps.includes('login-otp')).toBe(journey.loginOtp !== 'none');
            expect(steps.includes('login-otp-preference')).toBe(journey.loginOtp === 'choice');
            expect(steps.includes('mfa-setup')).toBe(journey.mfaRequired);
            expect(await cookieValue(state.context!, target.baseUrl, 'gmap_authenticated')).toBe('true');
            expect(state.cspViolations).toEqual([]);
          });
        }

        step(journey.settings.profileUpdatable ? 'edits the profile: the change is saved and shown' : 'refuses a profile edit (updatable "false"): no edit link, edit-profile goes back to the profile', async () => {
          await page().goto(url('profile'));
          await endsOn(page(), 'profile');
          await page().locator('.profile-summary__name').waitFor();
          await checkScreen('profile', true);
          const editLink = page().getByRole('link', { name: contentText('profile', 'link.edit-profile') });
          if (!journey.settings.profileUpdatable) {
            // SPEC §2 profile-update guard and §6: no way in, and the route itself sends back.
            expect(await editLink.count()).toBe(0);
            await page().goto(url('edit-profile'));
            await endsOn(page(), 'profile');
            await page().locator('.profile-summary__name').waitFor();
            expect(await editLink.count()).toBe(0);
            return;
          }
          await editLink.click();
          await endsOn(page(), 'edit-profile');
          await page().locator('#root_last_name').waitFor();
          await checkScreen('edit-profile', true);
          const lastName = `Journey${journey.siteId.replace(/[^a-z]/g, '').slice(0, 8)}`;
          await page().locator('#root_last_name').fill(lastName);
          await page().getByRole('button', { name: contentText('profile', 'edit.submit') }).click();
          await endsOn(page(), 'profile');
          await page().getByText(contentText('profile', 'edit.saved')).waitFor();
          await checkScreen('profile-saved');
          await expect.poll(() => page().locator('.profile-summary__name').textContent()).toContain(lastName);
          expect(state.cspViolations).toEqual([]);
        });

        step(cardJourneyTitle(journey), async () => {
          await page().goto(url('edit-pan'));
          await endsOn(page(), 'edit-pan');
          if (journey.standaloneCards) await standaloneCardJourney(page(), journey, checkScreen);
          else await cardEditorJourney(page(), journey, checkScreen);
          expect(state.cspViolations).toEqual([]);
        });

        if (journey.settings.marketingOptIns.length > 0) {
          step(`changes a marketing opt-in (${journey.settings.marketingOptIns.join(', ')}) and it is kept after a reload`, async () => {
            await page().goto(url('profile'));
            await endsOn(page(), 'profile');
            const boxes = page().locator('.optins .check:not(.check--all) input[type="checkbox"]');
            await boxes.first().waitFor();
            expect(await boxes.count()).toBe(journey.settings.marketingOptIns.length);
            const before = await boxes.first().isChecked();
            await boxes.first().setChecked(!before);
            await page().getByRole('button', { name: contentText('optins', 'save') }).click();
            await page().getByText(contentText('optins', 'saved')).waitFor();
            await checkScreen('optins-saved');
            await page().reload();
            await boxes.first().waitFor();
            expect(await boxes.first().isChecked()).toBe(!before);
            expect(state.cspViolations).toEqual([]);
          });
        }

        step('signs out: the session cookies are cleared and a protected route goes to the sign-in', async () => {
          const signInRoute = journey.sso ? 'redirect-sso' : 'login-form';
          await page().goto(url('logout'));
          await endsOn(page(), signInRoute);
          await checkScreen('signed-out');
          expect(await cookieValue(state.context!, target.baseUrl, 'gmap_authenticated')).toBeUndefined();
          expect(await cookieValue(state.context!, target.baseUrl, 'SESSION')).toBeUndefined();
          await page().goto(url('edit-pan'));
          await endsOn(page(), signInRoute);
          expect(state.cspViolations).toEqual([]);
        });
      });
    }
  });
}

/** Held by one site's describe: never shared between sites or targets. */
interface JourneyState {
  context: BrowserContext | null;
  page: Page | null;
  cspViolations: string[];
  /** A step failed: the later ones cannot run. */
  broken: boolean;
  email: string;
  phoneDigits: string | null;
}

type CheckScreen = (screen: string, screenshot?: boolean) => Promise<void>;

/**
 * Fills every field of a site form with a valid value for its rule, in screen order, and returns
 * the phone's digits (where an `sms` site texts the passcode), if the form has a phone.
 */
async function fillForm(page: Page, schema: JsonSchema, uiSchema: UiSchema, email: string): Promise<string | null> {
  let phoneDigits: string | null = null;
  const fill = async (id: string, key: string, field: JsonSchema, ui: UiSchema): Promise<void> => {
    if (ui['ui:widget'] === 'hidden') return;
    if (field.type === 'object') {
      // The address parts; marketing opt-ins are chosen on the profile.
      if (key !== 'address') return;
      for (const part of (ui['ui:order'] as string[] | undefined) ?? []) {
        await fill(`${id}_${part}`, part, field.properties![part]!, (ui[part] as UiSchema | undefined) ?? {});
      }
      return;
    }
    if (field.type === 'array') return;
    if (field.type === 'boolean') {
      const box = page.locator(`input#${id}[type="checkbox"]`);
      if ((await box.count()) > 0) await box.check();
      return;
    }
    if (key === 'dob') {
      // SPEC §5 dob parts in the site's order: the first part has the field's id, the others `{id}_{part}`.
      for (const [part, value] of Object.entries(JOURNEY_DOB)) {
        const own = page.locator(`#${id}_${part}`);
        await ((await own.count()) > 0 ? own : page.locator(`#${id}`)).fill(value);
      }
      return;
    }
    if (field.enum) {
      await page.locator(`#${id}`).selectOption(field.enum[0]!);
      return;
    }
    if (ui['ui:widget'] === 'CountryWidget') {
      await page.locator(`#${id}`).selectOption('US');
      return;
    }
    const value = textValueFor(key, field, email, { first: 'Alex', last: 'Morgan' });
    if (value === null) throw new Error(`no test value for the field ${key} (${JSON.stringify(field)})`);
    await page.locator(`#${id}`).fill(value.typed);
    // The site's mask formats what is typed (SPEC §5).
    expect(await page.locator(`#${id}`).inputValue(), `${key} as shown`).toBe(value.shown);
    if (key === 'phone') phoneDigits = value.shown.replace(/\D/g, '');
  };
  for (const key of (uiSchema['ui:order'] as string[] | undefined) ?? []) {
    await fill(`root_${key}`, key, schema.properties![key]!, (uiSchema[key] as UiSchema | undefined) ?? {});
  }
  return phoneDigits;
}

const cardInput = (page: Page): Locator => page.locator('input[name="pan"]');
const cardRows = (page: Page): Locator => page.locator('.card-rows > li');
const menuButton = (page: Page, lastFour: string): Locator => page.getByRole('button', { name: contentText('cards', 'moreActionsFor', { lastFour }) });

/** The capture block (SPEC §2): type the number, add, wait for the check to end. */
async function addCardInCaptureBlock(page: Page, card: string): Promise<void> {
  await cardInput(page).fill(groupedCard(card));
  await page.locator('.capture-block__submit').click();
}

function cardJourneyTitle(journey: JourneySite): string {
  // SPEC §9: no configured limit reads as the maximum safe integer.
  const limit = journey.cards.limit < Number.MAX_SAFE_INTEGER ? `limit ${journey.cards.limit}` : 'no limit';
  if (journey.standaloneCards) return `adds a card with the standalone form (cms tenant vpp, ${limit}): the terms must be ticked; it is listed on the profile`;
  if (!journey.cards.updateAllowed) return `adds and removes cards with the edit/delete form (${limit}); no set-as-default and no actions menu (pan_update_allowed "false")`;
  return `adds cards up to what the site allows (${limit}), sets a default and removes a card through the actions menu and its modals`;
}

/** How many cards to hold at most in the journey: up to a small limit (to show it is enforced), else two. */
function cardsToHold(journey: JourneySite): number {
  return journey.cards.limit <= 3 ? journey.cards.limit : 2;
}

async function addCardsUpTo(page: Page, journey: JourneySite, count: number): Promise<string[]> {
  const start = await cardRows(page).count();
  const fresh = eligibleTestCards(journey.siteId, 16).slice(1);
  const added: string[] = [];
  for (let rows = start; rows < count; rows += 1) {
    const card = fresh[rows]!;
    await addCardInCaptureBlock(page, card);
    await expect.poll(() => cardRows(page).count(), { timeout: 15_000 }).toBe(rows + 1);
    added.push(card);
  }
  return added;
}

async function cardEditorJourney(page: Page, journey: JourneySite, checkScreen: CheckScreen): Promise<void> {
  await cardInput(page).or(cardRows(page).first()).first().waitFor();
  const target = cardsToHold(journey);
  await addCardsUpTo(page, journey, target);
  await page.getByText(journey.cards.texts.panAddSuccessMessage ?? contentText('cards', 'panAdded')).waitFor();
  if (target === journey.cards.limit) {
    // SPEC §4: the add form hides when the count reaches the limit.
    await expect.poll(() => cardInput(page).count()).toBe(0);
    await page.getByText(contentText('cards', 'limitReached')).waitFor();
  }
  await checkScreen('cards', true);
  const numbers = await page.locator('.card-rows .card-row__number').allTextContents();
  const lastFours = numbers.map((text) => text.slice(-4));

  if (!journey.cards.updateAllowed) {
    // SPEC §6: set-default and the actions menu depend on pan_update_allowed.
    expect(await page.getByRole('button', { name: new RegExp(contentText('cards', 'moreActions')) }).count()).toBe(0);
    expect(await page.getByText(contentText('cards', 'setAsDefault')).count()).toBe(0);
    const removed = lastFours[lastFours.length - 1]!;
    await page.getByRole('button', { name: contentText('cards', 'removeCard', { lastFour: removed }) }).click();
    const dialog = page.getByRole('dialog', { name: contentText('cards', 'modal.remove.title') });
    await dialog.waitFor();
    await checkScreen('cards-remove-modal');
    await dialog.getByRole('button', { name: contentText('cards', 'modal.remove.confirm') }).click();
    await expect.poll(() => cardRows(page).count()).toBe(lastFours.length - 1);
    await checkScreen('cards-removed');
    return;
  }

  // Set the last card as the default through its menu and modal.
  const newDefault = lastFours[lastFours.length - 1]!;
  await menuButton(page, newDefault).click();
  await page.getByRole('menu').waitFor();
  await checkScreen('cards-menu');
  await page.getByRole('menuitem', { name: contentText('cards', 'setAsDefault') }).click();
  const setDefault = page.getByRole('dialog', { name: contentText('cards', 'modal.setDefault.title') });
  await setDefault.waitFor();
  await checkScreen('cards-set-default-modal');
  await setDefault.getByRole('button', { name: contentText('cards', 'modal.setDefault.confirm') }).click();
  await setDefault.waitFor({ state: 'detached' });
  await expect.poll(() => page.locator('.card-row--default .card-row__number').textContent()).toContain(newDefault);
  // The default card offers no "Set as default" (SPEC §4).
  await menuButton(page, newDefault).click();
  expect(await page.getByRole('menuitem').allTextContents()).toEqual([contentText('cards', 'remove')]);
  await page.keyboard.press('Escape');

  // Remove the first (no longer default) card through the remove modal.
  const removed = lastFours[0]!;
  await menuButton(page, removed).click();
  await page.getByRole('menuitem', { name: contentText('cards', 'remove') }).click();
  const remove = page.getByRole('dialog', { name: contentText('cards', 'modal.remove.title') });
  await remove.waitFor();
  expect(await remove.textContent()).toContain(`XXXX XXXX XXXX ${removed}`);
  await checkScreen('cards-remove-modal');
  await remove.getByRole('button', { name: contentText('cards', 'modal.remove.confirm') }).click();
  await expect.poll(() => cardRows(page).count()).toBe(lastFours.length - 1);
  await page.getByText(journey.cards.texts.panDeleteSuccessMessage ?? contentText('cards', 'panDeleted')).waitFor();
  // Below the limit again: the add form is back.
  await cardInput(page).waitFor();
  await checkScreen('cards-removed');
}

async function standaloneCardJourney(page: Page, journey: JourneySite, checkScreen: CheckScreen): Promise<void> {
  await cardInput(page).waitFor();
  await checkScreen('cards', true);
  // SPEC §2 standalone form: no list to manage here, so no menu, set-default or remove.
  expect(await page.getByRole('button', { name: new RegExp(contentText('cards', 'moreActions')) }).count()).toBe(0);
  const [, card] = eligibleTestCards(journey.siteId, 2);
  await cardInput(page).fill(groupedCard(card!));
  const submit = page.getByRole('button', { name: journey.cards.texts.submitText ?? contentText('cards', 'addCard'), exact: true });
  // Submit waits for the terms (SPEC §5 "standalone also needs terms ticked").
  expect(await submit.isDisabled()).toBe(true);
  await page.getByRole('checkbox').check();
  await checkScreen('cards-filled');
  await submit.click();
  await endsOn(page, 'profile');
  await page.getByText(journey.cards.texts.panAddSuccessMessage ?? contentText('cards', 'panAdded')).waitFor();
  const list = page.getByRole('list', { name: contentText('cards', 'listLabel') });
  await expect.poll(() => list.locator('.card-row__number').allTextContents()).toContain(`XXXX XXXX XXXX ${card!.slice(-4)}`);
  await checkScreen('cards-added');
}
