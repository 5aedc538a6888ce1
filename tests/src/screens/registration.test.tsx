// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registrationDataStored } from '../../../src/app/registration-slice';
import { OFFLINE_DEVELOPMENT_CAPTCHA_TOKEN } from '../../../src/app/offline-development-captcha';
import eurobank from '../../../fixtures/sites/eurobank.json';
import { answerWith, callsTo, renderPortal, resetFakePortal, type Answer, type SentCall } from './support/fake-portal';

/**
 * SPEC §2 registration and add-pan against ADR 0009's registration call: the site's form, the §7
 * captcha header, one "check your e-mail" answer for every address, the gateway's field errors
 * next to the fields, and the card step when the site captures cards at sign-up.
 */
const EUROBANK_REGISTRATION = '/eurobank/en_us/account/registration';
const CHECK_EMAIL: Answer = { status: 202, data: { status: 'CHECK_EMAIL' } };

/** The "check your e-mail" notice (the page also has the shell's page-title status region). */
async function checkEmailNotice(): Promise<HTMLElement> {
  const heading = await screen.findByRole('heading', { level: 1, name: 'Check your e-mail' });
  const notice = heading.parentElement?.querySelector<HTMLElement>('[role="status"]') ?? null;
  if (notice === null) throw new Error('the notice is not a status region');
  return notice;
}

/** The screen after the answer says what it is (its only h1) and offers the way on: signing in (SPEC §2). */
async function expectCheckEmailScreen(signInHref: string) {
  const headings = screen.getAllByRole('heading', { level: 1 });
  expect(headings.map((heading) => heading.textContent)).toEqual(['Check your e-mail']);
  expect(document.activeElement).toBe(headings[0]);
  // SPEC §2 page title: the tab names the screen shown, not the form it replaced ("Add your card", "Create an account").
  await waitFor(() => expect(document.title).toBe('Eurobank Vorteilsprogramm - Check your e-mail - Rewards Portal'));
  expect(screen.getByRole('link', { name: 'Go to sign in' }).getAttribute('href')).toBe(signInHref);
}

beforeEach(resetFakePortal);
afterEach(cleanup);

function registrationAnswers(answer: Answer) {
  return (call: SentCall): Answer | undefined => (call.url === 'user-mgmt/user/registration' ? answer : undefined);
}

/** eurobank with cards at sign-up at the given pan level (its fixture has None). */
function eurobankWithCards(panCode: '0' | '1') {
  return {
    ...eurobank,
    siteFeatureConfigurations: eurobank.siteFeatureConfigurations.map((feature) =>
      feature.name === 'user_asset_profile' ? { ...feature, featureConfig: { pan: panCode } } : feature,
    ),
  };
}

async function fillEurobankRegistration(email = 'lena.vogel@example.com') {
  fireEvent.change(await screen.findByLabelText(/^First name/), { target: { value: 'Lena' } });
  fireEvent.change(screen.getByLabelText(/^Last name/), { target: { value: 'Vogel' } });
  fireEvent.change(screen.getByLabelText(/^Email address/), { target: { value: email } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'Sunny-Day-42' } });
  fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: 'Sunny-Day-42' } });
  fireEvent.change(screen.getByLabelText(/^First digits of your card/), { target: { value: '41234567' } });
}

describe('§2 registration on a site without cards at sign-up (eurobank, pan None)', () => {
  it('posts { siteId, locale, user } with the §7 captcha token, then shows "check your e-mail"', async () => {
    answerWith(registrationAnswers(CHECK_EMAIL));
    renderPortal(EUROBANK_REGISTRATION);
    await fillEurobankRegistration();
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    const notice = await checkEmailNotice();
    expect(notice.textContent).toContain("We've sent a message to lena.vogel@example.com.");
    await expectCheckEmailScreen('/eurobank/en_us/account/login-form');
    const [registration] = callsTo('user-mgmt/user/registration');
    expect(registration?.method).toBe('POST');
    expect(registration?.headers['x-hcaptcha-token']).toBe(OFFLINE_DEVELOPMENT_CAPTCHA_TOKEN);
    expect(registration?.body).toMatchObject({
      siteId: 'eurobank',
      locale: 'en_us',
      user: {
        first_name: 'Lena',
        last_name: 'Vogel',
        email: 'lena.vogel@example.com',
        password: 'Sunny-Day-42',
        confirm_password: 'Sunny-Day-42',
        bin: '41234567',
      },
    });
    expect(registration?.body).not.toHaveProperty('cards');
    // Only the answer's address is kept, for a reload or Back/Forward (ADR 0019 "Flow steps"): no other field, no secret.
    expect(window.localStorage.length).toBe(0);
    expect({ ...window.sessionStorage }).toEqual({
      flow_steps: JSON.stringify({ registration: { siteId: 'eurobank', step: { email: 'lena.vogel@example.com' } } }),
    });
  });

  it('VALIDATION_FAILED: each named field shows its error next to it, nothing typed is lost; changing the field clears it', async () => {
    answerWith(
      registrationAnswers({ status: 400, data: { error: 'VALIDATION_FAILED', message: 'x', fields: { 'user.email': 'error', 'user.first_name': 'error' } } }),
    );
    renderPortal(EUROBANK_REGISTRATION);
    await fillEurobankRegistration();
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect((await screen.findByRole('alert')).textContent).toBe('⚠Please check the highlighted fields.');
    const email = screen.getByLabelText<HTMLInputElement>(/^Email address/);
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(email.value).toBe('lena.vogel@example.com');
    expect(screen.getByLabelText<HTMLInputElement>(/^First name/).value).toBe('Lena');
    expect(screen.getByLabelText<HTMLInputElement>(/^First digits of your card/).value).toBe('41234567');
    // The gateway's key `error` reads with the form's own text (SPEC §5 "Error key error").
    expect(screen.getAllByText('Please enter a valid value.')).toHaveLength(2);
    fireEvent.change(email, { target: { value: 'lena.v@example.com' } });
    await waitFor(() => expect(email.getAttribute('aria-invalid')).not.toBe('true'));
    expect(screen.getAllByText('Please enter a valid value.')).toHaveLength(1);
  });

  it('CAPTCHA_REQUIRED: the security-check text', async () => {
    answerWith(registrationAnswers({ status: 400, data: { error: 'CAPTCHA_REQUIRED', message: 'x' } }));
    renderPortal(EUROBANK_REGISTRATION);
    await fillEurobankRegistration();
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect((await screen.findByRole('alert')).textContent).toBe('⚠Please complete the security check and try again.');
  });

  it('an already registered address gets exactly the same answer (ADR 0009: no account enumeration)', async () => {
    answerWith(registrationAnswers(CHECK_EMAIL));
    renderPortal(EUROBANK_REGISTRATION);
    await fillEurobankRegistration('emily.carter@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect((await checkEmailNotice()).textContent).toContain("We've sent a message to emily.carter@example.com.");
  });

  it('ADR 0019 "Flow steps": following the sign-in link ends the sent registration, so "Create an account" shows the form again', async () => {
    answerWith(registrationAnswers(CHECK_EMAIL));
    renderPortal(EUROBANK_REGISTRATION);
    await fillEurobankRegistration();
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await checkEmailNotice();
    fireEvent.click(screen.getByRole('link', { name: 'Go to sign in' }));
    fireEvent.click(await screen.findByRole('link', { name: /Create an account|Sign up|Register/ }));
    expect(await screen.findByLabelText(/^First name/)).toBeTruthy();
    expect(window.sessionStorage.getItem('flow_steps')).toBeNull();
  });

  it('ADR 0019 "Flow steps": Back out of "check your e-mail" keeps it for Forward, but a link in to registration starts afresh', async () => {
    answerWith(registrationAnswers(CHECK_EMAIL));
    const { router } = renderPortal('/eurobank/en_us/account/login-form');
    fireEvent.click(await screen.findByRole('link', { name: 'Create an account' }));
    await fillEurobankRegistration();
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await checkEmailNotice();
    await router.navigate(-1);
    await waitFor(() => expect(router.state.location.pathname).toBe('/eurobank/en_us/account/login-form'));
    fireEvent.click(await screen.findByRole('link', { name: 'Create an account' }));
    // The registration form itself (the sign-in form has an e-mail field too), drawn once its loader is done.
    await screen.findByRole('button', { name: 'Create account' });
    expect(router.state.location.pathname).toBe(EUROBANK_REGISTRATION);
    expect(screen.getByLabelText<HTMLInputElement>(/^Email address/).value).toBe('');
    expect(screen.queryByRole('heading', { level: 1, name: 'Check your e-mail' })).toBeNull();
    // And it stays afresh across a reload: the sent registration is no longer kept for this tab.
    expect(window.sessionStorage.getItem('flow_steps')).toBeNull();
  });

  it('"check your e-mail" offers another address (a new, empty registration) and a new activation link (SPEC §2 resend-activation)', async () => {
    answerWith(registrationAnswers(CHECK_EMAIL));
    renderPortal(EUROBANK_REGISTRATION);
    await fillEurobankRegistration();
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await checkEmailNotice();
    expect(screen.getByRole('link', { name: 'Send me a new activation link' }).getAttribute('href')).toBe('/eurobank/en_us/account/resend-activation');
    fireEvent.click(screen.getByRole('button', { name: 'Use another e-mail address' }));
    expect((await screen.findByLabelText<HTMLInputElement>(/^Email address/)).value).toBe('');
    expect(window.sessionStorage.getItem('flow_steps')).toBeNull();
  });
});

describe('§2 registration → add-pan when the site captures cards at sign-up', () => {
  it('keeps the data in memory (not sent; only its non-secret fields stored) and goes to add-pan; back on registration the form shows it again', async () => {
    answerWith((call) => (call.url === 'site-config-service/config/site/eurobank' ? { status: 200, data: eurobankWithCards('1') } : undefined));
    const { router, store } = renderPortal(EUROBANK_REGISTRATION);
    await fillEurobankRegistration();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/eurobank/en_us/account/add-pan'));
    expect(store.getState().registration.data).toMatchObject({ email: 'lena.vogel@example.com', bin: '41234567' });
    expect(callsTo('user-mgmt/user/registration')).toHaveLength(0);
    // For a reload on add-pan: the non-secret fields in session storage, never the password or the card digits.
    expect(window.localStorage.length).toBe(0);
    expect(Object.keys(window.sessionStorage)).toEqual(['registration_draft']);
    const kept = window.sessionStorage.getItem('registration_draft') ?? '';
    expect(kept).toContain('lena.vogel@example.com');
    for (const secret of ['Sunny-Day-42', '41234567']) expect(kept).not.toContain(secret);
    fireEvent.click(await screen.findByRole('link', { name: 'Back to registration' }));
    expect((await screen.findByLabelText<HTMLInputElement>(/^Email address/)).value).toBe('lena.vogel@example.com');
    expect((await screen.findByLabelText<HTMLInputElement>(/^Password/)).value).toBe('Sunny-Day-42');
  });

  it('after a reload (nothing in memory) the form shows the kept fields, the password empty, and says why', async () => {
    answerWith((call) => (call.url === 'site-config-service/config/site/eurobank' ? { status: 200, data: eurobankWithCards('1') } : undefined));
    window.sessionStorage.setItem(
      'registration_draft',
      JSON.stringify({ siteId: 'eurobank', data: { first_name: 'Lena', last_name: 'Vogel', email: 'lena.vogel@example.com' } }),
    );
    const { router } = renderPortal('/eurobank/en_us/account/add-pan');
    await waitFor(() => expect(router.state.location.pathname).toBe(EUROBANK_REGISTRATION));
    expect((await screen.findByLabelText<HTMLInputElement>(/^Email address/)).value).toBe('lena.vogel@example.com');
    expect(screen.getByLabelText<HTMLInputElement>(/^First name/).value).toBe('Lena');
    expect(screen.getByLabelText<HTMLInputElement>(/^Password/).value).toBe('');
    expect(screen.getByText(/your password and other sensitive details/)).toBeTruthy();
  });
});

describe('§2 add-pan: card numbers through the card input, then the registration with cards', () => {
  const REGISTRATION_DATA = {
    first_name: 'Lena',
    last_name: 'Vogel',
    email: 'lena.vogel@example.com',
    password: 'Sunny-Day-42',
    confirm_password: 'Sunny-Day-42',
    bin: '41234567',
  };

  /** ADR 0011 validation call: eligible unless the test says otherwise (SPEC §5 server eligibility). */
  function renderAddCard(panCode: '0' | '1', answer: Answer = CHECK_EMAIL, validation: Answer = { status: 200, data: { eligible: true, productType: 'C' } }) {
    answerWith((call) => {
      if (call.url === 'site-config-service/config/site/eurobank') return { status: 200, data: eurobankWithCards(panCode) };
      if (call.url === 'user-attribute/user/assets/validation') return validation;
      return registrationAnswers(answer)(call);
    });
    return renderPortal('/eurobank/en_us/account/add-pan', (store) => store.dispatch(registrationDataStored(REGISTRATION_DATA)));
  }

  async function addCard(number: string) {
    fireEvent.change(await screen.findByLabelText(/^Kartennummer/), { target: { value: number } });
    fireEvent.click(screen.getByRole('button', { name: 'Karte hinzufügen' }));
  }

  it('adds cards masked XXXX XXXX XXXX 1234 with remove, refuses a duplicate, posts pans without spaces, then "check your e-mail"', async () => {
    const { store } = renderAddCard('1');
    await addCard('4111 1111 1111 1111');
    const list = await screen.findByRole('list', { name: 'Cards to add' });
    expect(within(list).getByText('XXXX XXXX XXXX 1111')).toBeTruthy();
    await addCard('4111111111111111');
    // SPEC §8: a duplicate is "A valid {product} card is required", the site's configured text first.
    expect(await screen.findByText('Eine gültige Eurobank-Karte ist erforderlich')).toBeTruthy();
    await addCard('4012 8888 8888 1881');
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: 'Entfernen (Remove the card ending in 1111)' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect((await checkEmailNotice()).textContent).toContain("We've sent a message to lena.vogel@example.com.");
    // Not the card step's "Add your card" heading any more.
    await expectCheckEmailScreen('/eurobank/en_us/account/login-form');
    expect(callsTo('user-mgmt/user/registration')[0]?.body).toEqual({
      siteId: 'eurobank',
      locale: 'en_us',
      user: REGISTRATION_DATA,
      cards: [{ pan: '4012888888881881' }],
    });
    // The password is dropped once the registration is sent.
    expect(store.getState().registration.data).toBeNull();
  });

  it("an invalid number shows the site's configured card error (SPEC §5) without asking the server", async () => {
    renderAddCard('1');
    await addCard('4111 1111 1111 1112');
    expect(await screen.findByText('Eine gültige Eurobank-Karte ist erforderlich')).toBeTruthy();
    expect(callsTo('user-attribute/user/assets/validation')).toHaveLength(0);
  });

  it.each([
    ['answers eligible false', { status: 200, data: { eligible: false, productType: null } }],
    ['fails (a failed call counts as ineligible)', { status: 503, data: { error: 'UNAVAILABLE', message: 'x' } }],
  ] as const)('the server check %s: the card is not added (SPEC §5)', async (_case, validation) => {
    renderAddCard('1', CHECK_EMAIL, validation);
    await addCard('4111 1111 1111 1111');
    expect(await screen.findByText('Eine gültige Eurobank-Karte ist erforderlich')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Cards to add' })).toBeNull();
    expect(callsTo('user-attribute/user/assets/validation')[0]?.body).toEqual({ assetType: 'PAN', value: '4111111111111111' });
  });

  it("Mandatory: no registration without a card (the site's panAddRequireMessage); Optional: none is fine", async () => {
    renderAddCard('0');
    fireEvent.click(await screen.findByRole('button', { name: 'Create account' }));
    expect((await screen.findByRole('alert')).textContent).toBe('⚠Bitte geben Sie Ihre Kartennummer ein.');
    expect(callsTo('user-mgmt/user/registration')).toHaveLength(0);
    cleanup();
    resetFakePortal();
    renderAddCard('1');
    fireEvent.click(await screen.findByRole('button', { name: 'Create account' }));
    await checkEmailNotice();
    expect(callsTo('user-mgmt/user/registration')[0]?.body).toMatchObject({ cards: [] });
  });

  it('a card the gateway refuses (cards.N.pan) is marked in the list', async () => {
    renderAddCard('1', { status: 400, data: { error: 'VALIDATION_FAILED', message: 'x', fields: { 'cards.0.pan': 'invalid' } } });
    await addCard('4111 1111 1111 1111');
    fireEvent.click(await screen.findByRole('button', { name: 'Create account' }));
    expect(await screen.findByText("The card ending in 1111 isn't a valid card.")).toBeTruthy();
  });

  it('without registration data the guard sends the visitor to /registration (SPEC §2)', async () => {
    const { router } = renderPortal('/eurobank/en_us/account/add-pan');
    await waitFor(() => expect(router.state.location.pathname).toBe('/eurobank/en_us/account/registration'));
  });
});
