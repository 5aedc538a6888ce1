import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonSchema, UiSchema } from '../../../../schemas/forms/json-schema';
import { smsNumber } from '../../../../gateway/auth/passcode-delivery';
import { formatNumber } from '../../../../schemas/locales/intl-format';
import { localeDirection } from '../../../../schemas/locales/locale-table';
import { siteLocalesOf } from '../../../../schemas/site-config/site-locales';
import { ACCOUNT_MENU_ROUTES, allowedAccountRoutes, PROFILE_LINK_ROUTES } from '../../../../src/screens/profile/profile-links';
import { connectedAppOf } from '../../../../src/screens/sso/sso-parameters';
import { listSiteFixtures } from '../../../support/site-fixtures';
import { expectNoAxeViolations } from '../accessibility';
import { activateWithPassword, activationLink } from '../account-helpers';
import { expectValuesIsolated } from '../bidi-isolation';
import { collectCspViolations, launchChromium, saveScreenshot } from '../browser';
import { cookieValue, endsOn, eventually, routeOf } from '../navigation';
import type { PortalProcess } from '../portal-process';
import { totpCode } from '../sign-in-helpers';
import { JOURNEY_DOB, JOURNEY_PASSWORD, textValueFor } from './field-values';
import { journeySiteOf, type JourneySite } from './journey-site';
import { outboxIdsOf, passcodeTo } from './passcodes';
import { eligibleTestCards, groupedCard } from './test-cards';

/**
 * Every site found in fixtures/sites (a new fixture is covered with no test
 * edit), in each locale it is for (its fixture's site_locales, so an Arabic site is walked in Arabic,
 * its buttons found by the words of that locale's content), each through its whole journey in
 * Chromium against a real target, driven only by what its configuration says (read through
 * `schemas/`, as the app and the gateway read it): registration with the site's own fields (SPEC §3,
 * §5), add-pan when it captures cards at sign-up, activation from the mailed link, sign-in with the
 * site's passcode step or SSO (SPEC §2, §4), profile edit or its refusal (§6 updatable), cards as its
 * limit and update flag allow (§2, §4, §5), marketing opt-ins (§3), then a walk from the sign-in page
 * to every route the site allows and back to the profile by visible links and buttons only (the
 * profile's links, each screen's Back breadcrumb and the header's account menu, SPEC §2) and
 * sign-out from that menu. axe-core (WCAG 2.2 A/AA) on every screen the journey reaches, and no CSP
 * violation. All state lives in the target (its database and its dev outbox, read through
 * `target.baseUrl`), so the same matrix runs against one embedded gateway or several behind one port.
 */
export function defineSiteJourneyMatrix(
  label: string,
  startTarget: () => Promise<PortalProcess>,
  options: { walkByVisibleLinks: boolean; checkEveryScreen: boolean; onePerSignInPath?: boolean } = { walkByVisibleLinks: true, checkEveryScreen: true },
): void {
  const journeys = listSiteFixtures().flatMap((site) => siteLocalesOf(site).map((locale) => journeySiteOf(site, locale)));
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

    for (const journey of options.onePerSignInPath === true ? firstOfEachSignInPath(journeys) : journeys) {
      const contentText = journey.text;
      // The journeys share nothing but the target and the browser (each its own context, address and
      // cards), so several run side by side, up to the e2e project's maxConcurrency; a journey's own
      // steps stay in order (it.sequential), each needing the one before.
      describe(`${journey.siteId} in ${journey.locale}${journey.sso ? ' (SSO)' : ''}`, { concurrent: true }, () => {
        const state: JourneyState = {
          context: null,
          page: null,
          cspViolations: [],
          broken: false,
          email: `journey.${journey.siteId.replace(/_/g, '-')}.${journey.locale.replace('_', '-')}.${runId}@example.com`,
          phoneDigits: null,
          totpSecret: null,
          lastTotpStep: -1,
        };
        const url = (route: string) => `${target.baseUrl}/${journey.siteId}/${journey.locale}/account/${route}`;
        const page = (): Page => {
          if (state.page === null) throw new Error('an earlier step of this journey failed');
          return state.page;
        };
        /**
         * Every screen: axe-core with the WCAG 2.2 A/AA rules, and a screenshot of the main ones; on a right-to-left
         * locale, every number, masked value, card number, code, date in digits and e-mail isolated (SPEC §2 "Page
         * language follows the locale", schemas/locales/bidi-isolates.ts).
         */
        const checkScreen = async (screen: string, screenshot = false) => {
          if (!options.checkEveryScreen) return;
          if (localeDirection(journey.locale) === 'rtl') await expectValuesIsolated(page(), `${journey.siteId} ${journey.locale} ${screen}`);
          await expectNoAxeViolations(page(), `${journey.siteId} ${screen}`);
          if (screenshot) await saveScreenshot(page(), `journey-${journey.siteId}-${journey.locale}-${screen}`);
        };

        /**
         * One step of the journey: each needs the ones before it, so after a failure the rest fail at
         * once (naming the cause) instead of waiting out their timeouts; the failing screen is kept.
         */
        const step = (title: string, body: () => Promise<void>) =>
          it(title, { concurrent: false }, async () => {
            if (state.broken) throw new Error('an earlier step of this journey failed');
            try {
              await body();
            } catch (error) {
              state.broken = true;
              if (state.page) await saveScreenshot(state.page, `journey-${journey.siteId}-${journey.locale}-failure`).catch(() => undefined);
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

        /** SPEC §2 SSO: from redirect-sso through the test identity provider's picker to the profile, by clicks. */
        const signInThroughSso = async () => {
          // ADR 0001 connected_app: the button names the bank's sign-in app when the site names one.
          const app = connectedAppOf(journey.site);
          await page()
            .getByRole('button', { name: app === null ? contentText('sso', 'continue') : contentText('sso', 'continue.app', { app }) })
            .click();
          if (journey.saml) {
            // ADR 0028: the test SAML identity provider's own page lists its people; each button posts a Response.
            await page().waitForURL(/\/test-saml-idp\/sso\?/);
            await page()
              .getByRole('button', { name: new RegExp(`^${contentText('sso', 'simulator.submit')}`) })
              .first()
              .click();
            await endsOn(page(), 'profile');
            return;
          }
          await endsOn(page(), 'sso-simulator');
          await page().getByRole('radio').first().waitFor();
          await checkScreen('sso-simulator');
          await page().getByRole('radio').first().check();
          await page()
            .getByRole('button', { name: contentText('sso', 'simulator.submit') })
            .click();
          await endsOn(page(), 'profile');
        };

        /** The authenticator's code for a new time step (a code is good once). */
        const nextTotpCode = async (): Promise<string> => {
          while (Math.floor(Date.now() / 30_000) <= state.lastTotpStep) await page().waitForTimeout(1_000);
          state.lastTotpStep = Math.floor(Date.now() / 30_000);
          return totpCode(state.totpSecret!, Date.now() / 1000);
        };

        /**
         * From the sign-in form: the password, then the site's steps in the order the gateway asks for
         * them (SPEC §2, ADR 0008): where the passcode goes, the passcode (mailed, texted, or from the
         * authenticator once one is set up) and the required authenticator set-up. Answers the routes seen.
         */
        const signInWithPassword = async (): Promise<string[]> => {
          const request = state.context!.request;
          const destinations = [state.email, ...(state.phoneDigits ? [state.phoneDigits] : [])];
          await page().locator('#root_username').waitFor();
          await checkScreen('login', true);
          let seen = await outboxIdsOf(request, target.baseUrl, destinations);
          await page().locator('#root_username').fill(state.email);
          await page().locator('#root_password').fill(JOURNEY_PASSWORD);
          await page().locator('.site-form button[type="submit"]').first().click();
          const steps: string[] = [];
          for (;;) {
            await eventually(async () => expect(routeOf(page())).toMatch(/^(login-otp-preference|login-otp|mfa-setup|profile)$/), 15_000);
            const route = routeOf(page());
            steps.push(route);
            await endsOn(page(), route);
            if (route === 'profile') return steps;
            if (steps.length > 4) throw new Error(`sign-in went round: ${steps.join(' → ')}`);
            if (route === 'login-otp-preference') {
              await page().getByRole('radio').first().waitFor();
              await checkScreen('login-otp-preference');
              seen = await outboxIdsOf(request, target.baseUrl, destinations);
              await page()
                .getByRole('radio', { name: new RegExp(`^${contentText('signIn', 'preference.email').split('{{')[0]!.trim()}`) })
                .check();
              await page()
                .getByRole('button', { name: contentText('signIn', 'preference.submit') })
                .click();
              await eventually(async () => expect(routeOf(page())).not.toBe('login-otp-preference'), 15_000);
            } else if (route === 'login-otp') {
              await page().locator('#root_otp').waitFor();
              await checkScreen('login-otp');
              const fromAuthenticator = state.totpSecret !== null && (await page().getByText(contentText('signIn', 'otp.totpIntro')).count()) > 0;
              // A right-to-left page shows where the code went (`*** *** 3456`) left to right, on one line.
              if (!fromAuthenticator && localeDirection(journey.locale) === 'rtl')
                await expectLeftToRightOnOneLine(page().locator('.sign-in__intro bdi[dir="ltr"]'), /\d{4}$/);
              await page()
                .locator('#root_otp')
                .fill(fromAuthenticator ? await nextTotpCode() : await passcodeTo(request, target.baseUrl, destinations, seen));
              await page().locator('.site-form button[type="submit"]').first().click();
              await eventually(async () => expect(routeOf(page())).not.toBe('login-otp'), 15_000);
            } else {
              if (state.totpSecret !== null) throw new Error('mfa-setup again after the authenticator was set up');
              await page()
                .getByRole('button', { name: contentText('signIn', 'mfa.start') })
                .click();
              state.totpSecret = ((await page().getByTestId('totp-key').textContent()) ?? '').replace(/ /g, '');
              await checkScreen('mfa-setup');
              await page()
                .locator('#root_passcode')
                .fill(await nextTotpCode());
              await page()
                .getByRole('button', { name: contentText('signIn', 'mfa.enroll') })
                .click();
              await page()
                .getByRole('button', { name: contentText('signIn', 'mfa.codes.saved') })
                .click();
              await page().getByText(contentText('signIn', 'mfa.enrolledNow')).first().waitFor();
              // The set-up's Back breadcrumb appears once the profile is open to this person.
              await page()
                .getByRole('navigation', { name: contentText('common', 'breadcrumb.label'), exact: true })
                .getByRole('link', { name: contentText('common', 'breadcrumb.back'), exact: true })
                .click();
            }
          }
        };

        if (journey.sso) {
          step('signs in through redirect-sso, the test identity provider and its identity picker, and lands on the profile (SPEC §2 SSO)', async () => {
            await page().goto(url('profile'));
            await endsOn(page(), 'redirect-sso');
            await checkScreen('login', true);
            await signInThroughSso();
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
            state.phoneDigits = await fillForm(page(), journey.siteId, journey.registration.schema, journey.registration.uiSchema, state.email);
            await checkScreen('registration', true);
            await page().locator('.site-form button[type="submit"]').first().click();

            if (journey.panAtSignUp === 'Mandatory' || journey.panAtSignUp === 'Optional') {
              // SPEC §2 add-pan: one card from the site's BIN ranges, listed masked (SPEC §5).
              await endsOn(page(), 'add-pan');
              const [card] = journeyCards(journey, 1);
              await addCardInCaptureBlock(page(), card!);
              await eventually(async () =>
                expect(await page().locator('.card-rows .card-row__number').allTextContents()).toEqual([`XXXX XXXX XXXX ${card!.slice(-4)}`]),
              );
              await checkScreen('add-pan', true);
              await page()
                .getByRole('button', { name: contentText('account', 'addCard.submit'), exact: true })
                .click();
            }
            await page()
              .getByRole('heading', { name: contentText('account', 'checkEmail.title') })
              .waitFor();
            await checkScreen('check-email');

            const link = await activationLink(request, target.baseUrl, state.email, seen);
            expect(new URL(link).pathname).toBe(`/${journey.siteId}/${journey.locale}/account/activate`);
            // ADR 0009 "Activation": the link's page asks for the password chosen at registration.
            await activateWithPassword(page(), link, JOURNEY_PASSWORD);
            await page().getByText(contentText('account', 'activate.success')).waitFor();
            await checkScreen('activated');
            expect(state.cspViolations).toEqual([]);
          });

          step(
            `signs in${journey.loginOtp === 'none' ? '' : ` with a one-time passcode (login_otp ${journey.loginOtp})`}${journey.mfaRequired ? ', sets up the required authenticator' : ''} and lands on the profile`,
            async () => {
              await page().goto(url('login-form'));
              await endsOn(page(), 'login-form');
              const steps = await signInWithPassword();
              expect(steps.includes('login-otp')).toBe(journey.loginOtp !== 'none');
              expect(steps.includes('login-otp-preference')).toBe(journey.loginOtp === 'choice');
              expect(steps.includes('mfa-setup')).toBe(journey.mfaRequired);
              expect(await cookieValue(state.context!, target.baseUrl, 'gmap_authenticated')).toBe('true');
              expect(state.cspViolations).toEqual([]);
            },
          );
        }

        const signInRoute = journey.sso ? 'redirect-sso' : 'login-form';
        const accountMenu = () => page().getByRole('navigation', { name: contentText('common', 'accountMenu.label'), exact: true });
        const signOutLink = () => accountMenu().getByRole('link', { name: contentText('common', 'title.logout'), exact: true });
        const openAccountMenu = async () => {
          const button = accountMenu().getByRole('button').first();
          if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
          await signOutLink().waitFor();
        };
        const signOutFromMenu = async () => {
          await openAccountMenu();
          await signOutLink().click();
          await endsOn(page(), signInRoute);
        };
        // Each menu link reads as the title of the page it opens.
        // Once the authenticator is on (a site that requires it), its link says so (AccountMenu.tsx).
        const menuLinkText = (route: string) => contentText('common', route === 'mfa-setup' && journey.mfaRequired ? 'title.mfa-setup.on' : `title.${route}`);

        // Straight on from the sign-in above, which started at the sign-in page: no typed URL, only what a person sees and clicks.
        if (options.walkByVisibleLinks) {
          step(
            "from the sign-in, reaches every route the site allows and comes back to the profile by visible links and buttons only: the profile's links, each screen's Back breadcrumb and the account menu (SPEC §2)",
            async () => {
              await endsOn(page(), 'profile');
              // What the guards let this card holder open on this site (the same decideRoute the app asks).
              const visitor = { mfaEnrolled: state.totpSecret !== null, userType: 'CARDHOLDER' as const, actingForUser: false };
              const profileRoutes = allowedAccountRoutes(PROFILE_LINK_ROUTES, journey.site, journey.locale, visitor);
              const menuRoutes = allowedAccountRoutes(ACCOUNT_MENU_ROUTES, journey.site, journey.locale, visitor);

              // Every screen the profile links to, and back by its "Back" breadcrumb.
              const profileLinks = page().getByRole('navigation', { name: contentText('profile', 'links.title'), exact: true });
              for (const route of profileRoutes) {
                await profileLinks.getByRole('link', { name: contentText('profile', `link.${route}`), exact: true }).click();
                await endsOn(page(), route);
                await checkScreen(`walk-${route}`);
                await page()
                  .getByRole('navigation', { name: contentText('common', 'breadcrumb.label'), exact: true })
                  .getByRole('link', { name: contentText('common', 'breadcrumb.back'), exact: true })
                  .click();
                await endsOn(page(), 'profile');
              }

              // The account menu: exactly the allowed routes and Sign out; axe-clean open; within the page at 390 and 1280 px.
              await page().locator('.profile-summary__name').waitFor();
              await openAccountMenu();
              expect(await accountMenu().getByRole('link').allTextContents()).toEqual([...menuRoutes.map(menuLinkText), contentText('common', 'title.logout')]);
              await checkScreen('profile-menu-open');
              for (const width of [1280, 390]) {
                await page().setViewportSize({ width, height: 844 });
                const panel = await accountMenu().locator('.account-menu__panel').boundingBox();
                expect(panel, `menu panel at ${width} px`).not.toBeNull();
                expect(panel!.x).toBeGreaterThanOrEqual(0);
                expect(panel!.x + panel!.width).toBeLessThanOrEqual(width);
                const layout = await page().evaluate(
                  (viewport) => ({
                    width: document.documentElement.scrollWidth,
                    beyond: [...document.querySelectorAll('body *')]
                      .filter((element) => element.getBoundingClientRect().right > viewport + 1)
                      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
                  }),
                  width,
                );
                expect(layout.width, `wider than ${width} px: ${layout.beyond.slice(0, 8).join(', ')}`).toBeLessThanOrEqual(width);
                await saveScreenshot(page(), `frame-${journey.siteId}-${journey.locale}-menu-${width}`);
              }
              await page().setViewportSize({ width: 1280, height: 720 });
              await page().keyboard.press('Escape');

              // Its links lead where they say (one here, every one in the unit tests), and its profile link comes back.
              const menuRoute = menuRoutes.find((candidate) => candidate !== 'profile')!;
              await openAccountMenu();
              await accountMenu()
                .getByRole('link', { name: menuLinkText(menuRoute), exact: true })
                .click();
              await endsOn(page(), menuRoute);
              await openAccountMenu();
              await accountMenu()
                .getByRole('link', { name: menuLinkText('profile'), exact: true })
                .click();
              await endsOn(page(), 'profile');

              expect(state.cspViolations).toEqual([]);
            },
          );
        }

        step(
          journey.settings.profileUpdatable
            ? 'edits the profile: the change is saved and shown'
            : 'refuses a profile edit (updatable "false"): no edit link, edit-profile goes back to the profile',
          async () => {
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
            await page()
              .getByRole('button', { name: contentText('profile', 'edit.submit') })
              .click();
            await endsOn(page(), 'profile');
            await page().getByText(contentText('profile', 'edit.saved')).waitFor();
            await checkScreen('profile-saved');
            await eventually(async () => expect(await page().locator('.profile-summary__name').textContent()).toContain(lastName));
            expect(state.cspViolations).toEqual([]);
          },
        );

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
            await page()
              .getByRole('button', { name: contentText('optins', 'save') })
              .click();
            await page().getByText(contentText('optins', 'saved')).waitFor();
            await checkScreen('optins-saved');
            await page().reload();
            // The reloaded profile is drawn by the server first (ADR 0024); the next step's clicks are for the app.
            await endsOn(page(), 'profile');
            await boxes.first().waitFor();
            expect(await boxes.first().isChecked()).toBe(!before);
            expect(state.cspViolations).toEqual([]);
          });
        }

        step('signs out from the account menu: the session cookies are cleared', async () => {
          await signOutFromMenu();
          await checkScreen('signed-out');
          expect(await cookieValue(state.context!, target.baseUrl, 'gmap_authenticated')).toBeUndefined();
          expect(await cookieValue(state.context!, target.baseUrl, 'SESSION')).toBeUndefined();
          expect(state.cspViolations).toEqual([]);
        });

        step('signed out: signing out again and a protected route both end on the sign-in page, with no error', async () => {
          await page().goto(url('logout'));
          await endsOn(page(), signInRoute);
          expect(await page().getByRole('alert').count()).toBe(0);
          expect(await accountMenu().count()).toBe(0);
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
  /** The authenticator key set up at the first sign-in of an MFA-required site, for the next sign-in. */
  totpSecret: string | null;
  /** The TOTP time step last used: a code is good once (RFC 6238 replay rule), so the next waits for a new step. */
  lastTotpStep: number;
}

type CheckScreen = (screen: string, screenshot?: boolean) => Promise<void>;

/**
 * Fills every field of a site form with a valid value for its rule, in screen order, and returns
 * the phone's digits (where an `sms` site texts the passcode), if the form has a phone.
 */
/**
 * One journey for each way in and through sign-up the sites configure: SSO on OpenID Connect or SAML, the
 * passcode channel, a required authenticator, the card at sign-up and the standalone card form. These are the
 * steps whose state lives between calls (a passcode, a TOTP step, an SSO request, a pending card) and so can
 * cross instances on the scale path; a site's screens and its own rules (fields, card limits, opt-ins) run the
 * same code on either instance and are walked site by site on the embedded matrix.
 */
function firstOfEachSignInPath(journeys: JourneySite[]): JourneySite[] {
  const seen = new Set<string>();
  return journeys.filter((journey) => {
    const path = JSON.stringify([journey.sso, journey.saml, journey.loginOtp, journey.mfaRequired, journey.panAtSignUp, journey.standaloneCards]);
    if (seen.has(path)) return false;
    seen.add(path);
    return true;
  });
}

export async function fillForm(page: Page, siteId: string, schema: JsonSchema, uiSchema: UiSchema, email: string): Promise<string | null> {
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
    const value = textValueFor(key, field, siteId, email, { first: 'Alex', last: 'Morgan' });
    if (value === null) throw new Error(`no test value for the field ${key} (${JSON.stringify(field)})`);
    await page.locator(`#${id}`).fill(value.typed);
    // The site's mask formats what is typed (SPEC §5).
    expect(await page.locator(`#${id}`).inputValue(), `${key} as shown`).toBe(value.shown);
    // Where the gateway texts an `sms` site's passcode: the phone's digits, its + kept (smsNumber, ADR 0008).
    if (key === 'phone') phoneDigits = smsNumber(value.shown);
  };
  for (const key of (uiSchema['ui:order'] as string[] | undefined) ?? []) {
    await fill(`root_${key}`, key, schema.properties![key]!, (uiSchema[key] as UiSchema | undefined) ?? {});
  }
  return phoneDigits;
}

/** `count` cards for this journey: each locale's journey of a site holds its own, since a number one account holds is refused to another. */
function journeyCards(journey: JourneySite, count: number): string[] {
  const offset = 20 * siteLocalesOf(journey.site).indexOf(journey.locale);
  return eligibleTestCards(journey.siteId, offset + count).slice(offset);
}

const cardInput = (page: Page): Locator => page.locator('input[name="pan"]');
const cardRows = (page: Page): Locator => page.locator('.card-rows > li');
const menuButton = (page: Page, journey: JourneySite, lastFour: string): Locator =>
  page.getByRole('button', { name: journey.text('cards', 'moreActionsFor', { lastFour }) });

/** The capture block (SPEC §2): type the number (and the security code where the site asks it, ADR 0001 capture_cvv), add. */
/**
 * A masked value on a right-to-left page (SPEC §2 "Page language follows the locale"): an isolate that is left to
 * right and does not wrap, its visible characters drawn left to right on one line (what a person reads: "•••• 3707",
 * not "3707 ••••", and "*** *** 3456" not split over two lines). Text hidden for screen readers only is passed over.
 */
async function expectLeftToRightOnOneLine(isolate: Locator, text: RegExp): Promise<void> {
  expect(await isolate.textContent()).toMatch(text);
  const layout = await isolate.evaluate((element) => {
    const style = getComputedStyle(element);
    const glyphs: { left: number; top: number }[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      if ((node.parentElement?.getBoundingClientRect().width ?? 0) <= 1) continue;
      const content = node.textContent ?? '';
      for (let index = 0; index < content.length; index += 1) {
        if (/\s/.test(content[index]!)) continue;
        const range = document.createRange();
        range.setStart(node, index);
        range.setEnd(node, index + 1);
        const box = range.getBoundingClientRect();
        glyphs.push({ left: box.left, top: box.top });
      }
    }
    return { direction: style.direction, unicodeBidi: style.unicodeBidi, whiteSpace: style.whiteSpace, glyphs };
  });
  expect({ direction: layout.direction, unicodeBidi: layout.unicodeBidi, whiteSpace: layout.whiteSpace }).toEqual({
    direction: 'ltr',
    unicodeBidi: 'isolate',
    whiteSpace: 'nowrap',
  });
  expect(layout.glyphs.length).toBeGreaterThan(4);
  layout.glyphs.slice(1).forEach((glyph, index) => {
    expect(glyph.left).toBeGreaterThan(layout.glyphs[index]!.left);
    expect(Math.abs(glyph.top - layout.glyphs[index]!.top)).toBeLessThan(2);
  });
}

async function addCardInCaptureBlock(page: Page, card: string): Promise<void> {
  await cardInput(page).fill(groupedCard(card));
  await fillSecurityCode(page);
  await page.locator('.capture-block__submit').click();
}

/** A site with `capture_cvv` shows the code's field beside the number; the journeys type a well-formed one. */
async function fillSecurityCode(page: Page): Promise<void> {
  const cvv = page.locator('input[name="cvv"]');
  if ((await cvv.count()) > 0) await cvv.fill('737');
}

function cardJourneyTitle(journey: JourneySite): string {
  // SPEC §9: no configured limit reads as the maximum safe integer.
  const limit = journey.cards.limit < Number.MAX_SAFE_INTEGER ? `limit ${journey.cards.limit}` : 'no limit';
  if (journey.standaloneCards) return `adds a card with the standalone form (cms tenant vpp, ${limit}): the terms must be ticked; it is listed on the profile`;
  if (!journey.cards.updateAllowed)
    return `adds and removes cards with the edit/delete form (${limit}); no set-as-default and no actions menu (pan_update_allowed "false")`;
  return `adds cards up to what the site allows (${limit}), sets a default and removes a card through the actions menu and its modals`;
}

/** How many cards to hold at most in the journey: up to a small limit (to show it is enforced), else two. */
function cardsToHold(journey: JourneySite): number {
  return journey.cards.limit <= 3 ? journey.cards.limit : 2;
}

async function addCardsUpTo(page: Page, journey: JourneySite, count: number): Promise<string[]> {
  const start = await cardRows(page).count();
  const fresh = journeyCards(journey, 16).slice(1);
  const added: string[] = [];
  for (let rows = start; rows < count; rows += 1) {
    const card = fresh[rows]!;
    await addCardInCaptureBlock(page, card);
    await eventually(async () => expect(await cardRows(page).count()).toBe(rows + 1), 15_000);
    added.push(card);
  }
  return added;
}

async function cardEditorJourney(page: Page, journey: JourneySite, checkScreen: CheckScreen): Promise<void> {
  await cardInput(page).or(cardRows(page).first()).first().waitFor();
  const target = cardsToHold(journey);
  await addCardsUpTo(page, journey, target);
  await page.getByText(journey.cards.texts.panAddSuccessMessage ?? journey.text('cards', 'panAdded')).waitFor();
  if (target === journey.cards.limit) {
    // SPEC §4: the add form hides when the count reaches the limit.
    await eventually(async () => expect(await cardInput(page).count()).toBe(0));
    await page.getByText(journey.text('cards', 'limitReached', { count: formatNumber(journey.cards.limit, journey.locale) })).waitFor();
  }
  await checkScreen('cards', true);
  if (localeDirection(journey.locale) === 'rtl') await expectLeftToRightOnOneLine(page.locator('.card-rows .card-row__number').first(), /\d{4}$/);
  const numbers = await page.locator('.card-rows .card-row__number').allTextContents();
  const lastFours = numbers.map((text) => text.slice(-4));

  if (!journey.cards.updateAllowed) {
    // SPEC §6: set-default and the actions menu depend on pan_update_allowed.
    expect(await page.getByRole('button', { name: new RegExp(journey.text('cards', 'moreActions')) }).count()).toBe(0);
    expect(await page.getByText(journey.text('cards', 'setAsDefault')).count()).toBe(0);
    const removed = lastFours[lastFours.length - 1]!;
    await page.getByRole('button', { name: journey.text('cards', 'removeCard', { lastFour: removed }) }).click();
    const dialog = page.getByRole('dialog', { name: journey.text('cards', 'modal.remove.title') });
    await dialog.waitFor();
    await checkScreen('cards-remove-modal');
    await dialog.getByRole('button', { name: journey.text('cards', 'modal.remove.confirm') }).click();
    await eventually(async () => expect(await cardRows(page).count()).toBe(lastFours.length - 1));
    await checkScreen('cards-removed');
    return;
  }

  // Set the last card as the default through its menu and modal.
  const newDefault = lastFours[lastFours.length - 1]!;
  await menuButton(page, journey, newDefault).click();
  await page.getByRole('menu').waitFor();
  await checkScreen('cards-menu');
  await page.getByRole('menuitem', { name: journey.text('cards', 'setAsDefault') }).click();
  const setDefault = page.getByRole('dialog', { name: journey.text('cards', 'modal.setDefault.title') });
  await setDefault.waitFor();
  await checkScreen('cards-set-default-modal');
  await setDefault.getByRole('button', { name: journey.text('cards', 'modal.setDefault.confirm') }).click();
  await setDefault.waitFor({ state: 'detached' });
  await eventually(async () => expect(await page.locator('.card-row--default .card-row__number').textContent()).toContain(newDefault));
  // The default card offers no "Set as default" (SPEC §4).
  await menuButton(page, journey, newDefault).click();
  expect(await page.getByRole('menuitem').allTextContents()).toEqual([journey.text('cards', 'remove')]);
  await page.keyboard.press('Escape');

  // Remove the first (no longer default) card through the remove modal.
  const removed = lastFours[0]!;
  await menuButton(page, journey, removed).click();
  await page.getByRole('menuitem', { name: journey.text('cards', 'remove') }).click();
  const remove = page.getByRole('dialog', { name: journey.text('cards', 'modal.remove.title') });
  await remove.waitFor();
  expect(await remove.textContent()).toContain(`XXXX XXXX XXXX ${removed}`);
  await checkScreen('cards-remove-modal');
  await remove.getByRole('button', { name: journey.text('cards', 'modal.remove.confirm') }).click();
  await eventually(async () => expect(await cardRows(page).count()).toBe(lastFours.length - 1));
  await page.getByText(journey.cards.texts.panDeleteSuccessMessage ?? journey.text('cards', 'panDeleted')).waitFor();
  // Below the limit again: the add form is back.
  await cardInput(page).waitFor();
  await checkScreen('cards-removed');
}

async function standaloneCardJourney(page: Page, journey: JourneySite, checkScreen: CheckScreen): Promise<void> {
  await cardInput(page).waitFor();
  await checkScreen('cards', true);
  // SPEC §2 standalone form: no list to manage here, so no menu, set-default or remove.
  expect(await page.getByRole('button', { name: new RegExp(journey.text('cards', 'moreActions')) }).count()).toBe(0);
  const [, card] = journeyCards(journey, 2);
  await cardInput(page).fill(groupedCard(card!));
  await fillSecurityCode(page);
  const submit = page.getByRole('button', { name: journey.cards.texts.submitText ?? journey.text('cards', 'addCard'), exact: true });
  // Submit waits for the terms (SPEC §5 "standalone also needs terms ticked").
  expect(await submit.isDisabled()).toBe(true);
  await page.getByRole('checkbox').check();
  await checkScreen('cards-filled');
  await submit.click();
  await endsOn(page, 'profile');
  await page.getByText(journey.cards.texts.panAddSuccessMessage ?? journey.text('cards', 'panAdded')).waitFor();
  const list = page.getByRole('list', { name: journey.text('cards', 'listLabel') });
  await eventually(async () => expect(await list.locator('.card-row__number').allTextContents()).toContain(`XXXX XXXX XXXX ${card!.slice(-4)}`));
  await checkScreen('cards-added');
}
