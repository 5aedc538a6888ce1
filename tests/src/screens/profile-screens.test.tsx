// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AxiosAdapter } from 'axios';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gatewayHttp } from '../../../src/api/gateway-api';
import firstbank from '../../../fixtures/sites/firstbank.json';
import northbank from '../../../fixtures/sites/northbank.json';
import {
  answerWith,
  callsTo,
  goToSignIn,
  PROFILE,
  renderPortal,
  resetFakePortal,
  signedInAnswers,
  signInTheBrowser,
  type Answer,
  type SentCall,
} from './support/fake-portal';

/**
 * The profile screens against ADR 0010 over the fake gateway: the profile view (SPEC §3 profile and
 * attributes in their display format, links only where the guards let in), edit-profile (ONLY the
 * changed keys + baseVersion to v2, then user-mgmt/user/update; a 409 ATTRIBUTES_CHANGED said next
 * to its field with the new value), marketing opt-ins with "All of the above", site-settings offer
 * preferences (whole object at its version) and the cashback statement (loading, lines, empty).
 */
const BASE = '/firstbank/en_us/account/';

const ATTRIBUTES = {
  first_name: 'Emily',
  last_name: 'Carter',
  dob: '1988-04-12',
  phone: '2025550143',
  ninedigitbin: '411111111',
  nationalId: '536224189',
  marketing_opt_ins: { email: { optin: true }, transactional: { optin: false }, online: { optin: false }, cashback: { optin: false } },
  offers_preference: ['travel'],
};

const CATEGORIES = [
  { id: 'dining', name: 'Dining' },
  { id: 'travel', name: 'Travel' },
  { id: 'shopping', name: 'Shopping' },
];

function record(attributes: Record<string, unknown> = ATTRIBUTES, version = 3, siteId = 'firstbank'): Answer {
  return { status: 200, data: { userSites: { [siteId]: { siteId, attributes, version } } } };
}

/** The signed-in gateway: the test's answers first, then the user's site object, categories and the rest of a signed-in session. */
function gateway(answers: Record<string, Answer | (() => Answer)> = {}) {
  answerWith((call: SentCall) => {
    const answer = answers[`${call.method} ${call.url}`];
    if (answer) return typeof answer === 'function' ? answer() : answer;
    if (call.url === 'user-attribute/user/firstbank') return record();
    if (call.url === '/offersdata/customized-categories.json') return { status: 404, data: {} };
    if (call.url === '/offers/api/categories') return { status: 200, data: CATEGORIES };
    return signedInAnswers(call);
  });
}

beforeEach(() => {
  resetFakePortal();
  signInTheBrowser();
});
afterEach(cleanup);

function detail(field: string): string {
  const row = document.querySelector(`[data-field="${field}"]`);
  return row?.querySelector('dd')?.textContent ?? '';
}

describe('§2 profile: the §3 profile and the site attributes in their display format', () => {
  it('shows names, date of birth in the locale format, masked national id, phone in the site mask, status and MFA', async () => {
    gateway();
    renderPortal(`${BASE}profile`);
    await screen.findByText('Personal details');
    expect(within(screen.getByRole('main')).getByText('Emily Carter')).toBeTruthy();
    expect(screen.getByText(PROFILE.email)).toBeTruthy();
    expect(detail('dob')).toBe('April 12, 1988');
    expect(detail('title')).toBe('Ms');
    expect(detail('phone')).toBe('(202) 555-0143');
    // SPEC §3 "masked national id": only the last digits show, in the site's ssn mask.
    expect(detail('nationalId')).toBe('•••-••-4189');
    expect(document.body.textContent).not.toContain('536224189');
    expect(screen.getByText('Active')).toBeTruthy();
    expect(within(screen.getByText('Two-step verification', { selector: 'dt' }).parentElement as HTMLElement).getByText('Off')).toBeTruthy();
    // The chosen offer categories by name.
    expect(screen.getByText('Travel', { selector: '.profile-chip' })).toBeTruthy();
  });

  it('the avatar shows the first grapheme of each trimmed name, as the account menu does ("  Zoë  ", an emoji)', async () => {
    answerWith((call: SentCall) => {
      if (call.url === 'user-mgmt/user/find') return { status: 200, data: { ...PROFILE, firstName: '  Zoë  ', lastName: '👩🏽‍🚀 Ortiz' } };
      if (call.url === 'user-attribute/user/firstbank') return record();
      if (call.url === '/offersdata/customized-categories.json') return { status: 404, data: {} };
      if (call.url === '/offers/api/categories') return { status: 200, data: CATEGORIES };
      return signedInAnswers(call);
    });
    renderPortal(`${BASE}profile`);
    await screen.findByText('Personal details');
    expect(document.querySelector('.profile-summary__avatar')?.textContent).toBe('Z👩🏽‍🚀');
  });

  it('links to every screen firstbank allows: edit-profile, site-settings, cashback, cards, password, MFA, signed-in devices, delete', async () => {
    gateway();
    renderPortal(`${BASE}profile`);
    const links = await screen.findByRole('navigation', { name: 'Manage your account' });
    expect(
      within(links)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(
      ['edit-profile', 'site-settings', 'cashback-statement', 'edit-pan', 'password', 'mfa-setup', 'signed-in-devices', 'delete-profile'].map(
        (route) => `${BASE}${route}`,
      ),
    );
  });

  it('northbank (pan_capture updatable "false", allow_delete_profile "false"): no edit-profile and no delete-profile link', async () => {
    answerWith((call) =>
      call.url === 'site-config-service/config/site/northbank'
        ? { status: 200, data: northbank }
        : call.url === 'user-attribute/user/northbank'
          ? record({ phone: '4165550199' }, 1, 'northbank')
          : signedInAnswers(call),
    );
    renderPortal('/northbank/en_us/account/profile');
    const links = await screen.findByRole('navigation', { name: 'Manage your account' });
    const routes = within(links)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href')?.split('/').pop());
    expect(routes).not.toContain('edit-profile');
    expect(routes).not.toContain('delete-profile');
    expect(routes).toContain('password');
  });

  it('the SPEC §6 profile-update guard: edit-profile on northbank redirects to profile', async () => {
    answerWith((call) => (call.url === 'site-config-service/config/site/northbank' ? { status: 200, data: northbank } : signedInAnswers(call)));
    const { router } = renderPortal('/northbank/en_us/account/edit-profile');
    await waitFor(() => expect(router.state.location.pathname).toBe('/northbank/en_us/account/profile'));
  });
});

describe('§3 marketing opt-ins on the profile (ADR 0010: v2 with that one key)', () => {
  it('shows the site enabled opt-ins as stored; "All of the above" ticks them all; saves only marketing_opt_ins, with the opt-ins that changed, and the base version', async () => {
    gateway({ 'POST user-attribute/v2/user/firstbank': { status: 200, data: { siteId: 'firstbank', attributes: {}, version: 4 } } });
    renderPortal(`${BASE}profile`);
    const email = await screen.findByLabelText<HTMLInputElement>('Email me offers and program news');
    expect(email.checked).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('Show me personalized offers online').checked).toBe(false);
    // firstbank does not enable sms.
    expect(screen.queryByLabelText('Text me offers (SMS)')).toBeNull();
    fireEvent.click(screen.getByLabelText('All of the above'));
    fireEvent.click(screen.getByRole('button', { name: 'Save marketing preferences' }));
    expect(await screen.findByText('Your marketing preferences have been saved.')).toBeTruthy();
    expect(callsTo('user-attribute/v2/user/firstbank')[0]?.body).toEqual({
      attributes: { marketing_opt_ins: { transactional: { optin: true }, online: { optin: true }, cashback: { optin: true } } },
      baseVersion: 3,
    });
  });

  it('nothing changed: nothing is sent', async () => {
    gateway();
    renderPortal(`${BASE}profile`);
    fireEvent.click(await screen.findByRole('button', { name: 'Save marketing preferences' }));
    expect(await screen.findByText("You haven't changed anything yet.")).toBeTruthy();
    expect(callsTo('user-attribute/v2/user/firstbank')).toHaveLength(0);
  });

  it('reads the legacy names (SPEC §3): trnxn_data_optin "true" ticks transactional; a save carries it into the new shape', async () => {
    gateway({
      'GET user-attribute/user/firstbank': record({
        trnxn_data_optin: 'true',
        marketing_opt_ins: { email: { optin: false }, online: { optin: false }, cashback: { optin: false } },
      }),
      'POST user-attribute/v2/user/firstbank': { status: 200, data: { siteId: 'firstbank', attributes: {}, version: 4 } },
    });
    renderPortal(`${BASE}profile`);
    expect((await screen.findByLabelText<HTMLInputElement>('Use my card transactions to personalize my offers')).checked).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('Email me offers and program news').checked).toBe(false);
    fireEvent.click(screen.getByLabelText('Email me offers and program news'));
    fireEvent.click(screen.getByRole('button', { name: 'Save marketing preferences' }));
    await screen.findByText('Your marketing preferences have been saved.');
    expect(callsTo('user-attribute/v2/user/firstbank')[0]?.body).toEqual({
      attributes: { marketing_opt_ins: { email: { optin: true }, transactional: { optin: true } } },
      baseVersion: 3,
    });
  });
});

describe('§2 edit-profile: only the changed keys, then user-mgmt/user/update (ADR 0010)', () => {
  it('prefills from attributes and profile, sends ONLY the changed key with baseVersion, then update; back on profile with the notice', async () => {
    gateway({
      'POST user-attribute/v2/user/firstbank': { status: 200, data: { siteId: 'firstbank', attributes: {}, version: 4 } },
      'POST user-mgmt/user/update': { status: 200, data: PROFILE },
    });
    const { router } = renderPortal(`${BASE}edit-profile`);
    const lastName = await screen.findByLabelText<HTMLInputElement>(/^Last name/);
    expect(lastName.value).toBe('Carter');
    expect(screen.getByLabelText<HTMLInputElement>(/^First name/).value).toBe('Emily');
    // The profile form omits e-mail and national id (SPEC §5), and opt-ins and offers have their own screens.
    expect(screen.queryByLabelText(/^Email address/)).toBeNull();
    expect(screen.queryByLabelText(/Social Security number/)).toBeNull();
    expect(screen.queryByLabelText('All of the above')).toBeNull();
    fireEvent.change(lastName, { target: { value: 'Carter-Jones' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}profile`));
    expect(callsTo('user-attribute/v2/user/firstbank')[0]?.body).toEqual({ attributes: { last_name: 'Carter-Jones' }, baseVersion: 3 });
    expect(callsTo('user-mgmt/user/update')).toHaveLength(1);
    expect(await screen.findByText('Your profile has been saved.')).toBeTruthy();
  });

  it('SPEC §3 feature events: a saved profile is told to the mobile app bridge as editProfile', async () => {
    const heard: string[] = [];
    const host = globalThis as { ReactNativeWebView?: { postMessage(message: string): void } };
    host.ReactNativeWebView = { postMessage: (message) => heard.push(message) };
    try {
      gateway({
        'POST user-attribute/v2/user/firstbank': { status: 200, data: { siteId: 'firstbank', attributes: {}, version: 4 } },
        'POST user-mgmt/user/update': { status: 200, data: PROFILE },
      });
      // §1: isMobile marks the webview session; the bridge is told only then.
      const { router } = renderPortal(`${BASE}edit-profile?isMobile=true`);
      fireEvent.change(await screen.findByLabelText(/^Last name/), { target: { value: 'Carter-Jones' } });
      expect(heard).toEqual([]);
      fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
      await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}profile`));
      expect(heard.map((message) => JSON.parse(message) as unknown)).toEqual([{ type: 'feature', feature: 'editProfile' }]);
    } finally {
      delete host.ReactNativeWebView;
    }
  });

  it('user-mgmt/user/update fails: a failure notice, the person stays; the next save retries only the update', async () => {
    let updateAnswer: Answer = { status: 503, data: { error: 'UNAVAILABLE', message: 'x' } };
    gateway({
      'POST user-attribute/v2/user/firstbank': { status: 200, data: { siteId: 'firstbank', attributes: {}, version: 4 } },
      'POST user-mgmt/user/update': () => updateAnswer,
    });
    const { router } = renderPortal(`${BASE}edit-profile`);
    fireEvent.change(await screen.findByLabelText(/^Last name/), { target: { value: 'Carter-Jones' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByRole('alert')).textContent).toContain("We couldn't save your profile. Please try again.");
    expect(router.state.location.pathname).toBe(`${BASE}edit-profile`);
    updateAnswer = { status: 200, data: PROFILE };
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}profile`));
    expect(callsTo('user-attribute/v2/user/firstbank')).toHaveLength(1);
    expect(callsTo('user-mgmt/user/update')).toHaveLength(2);
  });

  it('nothing changed: nothing is sent', async () => {
    gateway();
    renderPortal(`${BASE}edit-profile`);
    fireEvent.click(await screen.findByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText("You haven't changed anything yet.")).toBeTruthy();
    expect(callsTo('user-attribute/v2/user/firstbank')).toHaveLength(0);
  });

  it('409 ATTRIBUTES_CHANGED: "someone changed it in another window" next to the field, the new value loaded, the other edits kept', async () => {
    gateway({
      'POST user-attribute/v2/user/firstbank': {
        status: 409,
        data: {
          error: 'ATTRIBUTES_CHANGED',
          message: 'changed',
          fields: { last_name: 'changed' },
          current: { attributes: { ...ATTRIBUTES, last_name: 'Brooks' }, version: 5 },
        },
      },
    });
    const { router } = renderPortal(`${BASE}edit-profile`);
    fireEvent.change(await screen.findByLabelText(/^Last name/), { target: { value: 'Carter-Jones' } });
    fireEvent.change(screen.getByLabelText(/^First name/), { target: { value: 'Emilia' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText("Someone changed Last name in another window. We've loaded the new values: check them and save again.")).toBeTruthy();
    const lastName = screen.getByLabelText<HTMLInputElement>(/^Last name/);
    expect(lastName.value).toBe('Brooks');
    expect(lastName.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(lastName.getAttribute('aria-describedby') ?? '')?.textContent).toContain('Someone changed this in another window.');
    expect(screen.getByLabelText<HTMLInputElement>(/^First name/).value).toBe('Emilia');
    expect(router.state.location.pathname).toBe(`${BASE}edit-profile`);
    expect(callsTo('user-mgmt/user/update')).toHaveLength(0);
  });

  it('401 (signed out in another tab): says the session ended, keeps what was typed for this tab, and signs in again only when asked', async () => {
    gateway({ 'POST user-attribute/v2/user/firstbank': { status: 401, data: { error: 'UNAUTHENTICATED', message: 'Sign in first.' } } });
    const { router } = renderPortal(`${BASE}edit-profile`);
    fireEvent.change(await screen.findByLabelText(/^Last name/), { target: { value: 'Carter-Jones' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Your session has ended');
    // Not the silent reload to sign-in of §8: the person is still on the form with what they typed.
    expect(goToSignIn).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe(`${BASE}edit-profile`);
    expect(screen.getByLabelText<HTMLInputElement>(/^Last name/).value).toBe('Carter-Jones');
    // Only what the person changed, with the version the form was read at.
    expect(JSON.parse(window.sessionStorage.getItem('profile_draft') ?? 'null')).toEqual({
      siteId: 'firstbank',
      userId: PROFILE.primaryUserIdentifier,
      changes: { last_name: 'Carter-Jones' },
      baseVersion: 3,
    });
    expect(window.sessionStorage.getItem('returnurl')).toBe(`${BASE}edit-profile`);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in again' }));
    await waitFor(() => expect(goToSignIn).toHaveBeenCalledTimes(1));
    expect(callsTo('user-mgmt/user/update')).toHaveLength(0);
  });

  it('a kept draft comes back for the person it was kept for, unsaved; its save sends only their change at the version they read', async () => {
    gateway({
      'POST user-attribute/v2/user/firstbank': { status: 200, data: { siteId: 'firstbank', attributes: {}, version: 4 } },
      'POST user-mgmt/user/update': { status: 200, data: PROFILE },
    });
    window.sessionStorage.setItem(
      'profile_draft',
      JSON.stringify({ siteId: 'firstbank', userId: PROFILE.primaryUserIdentifier, changes: { last_name: 'Carter-Jones' }, baseVersion: 2 }),
    );
    const { router } = renderPortal(`${BASE}edit-profile`);
    expect((await screen.findByLabelText<HTMLInputElement>(/^Last name/)).value).toBe('Carter-Jones');
    expect(screen.getByLabelText<HTMLInputElement>(/^First name/).value).toBe('Emily');
    expect(await screen.findByText(/We've put back the changes you made before your session ended/)).toBeTruthy();
    expect(callsTo('user-attribute/v2/user/firstbank')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}profile`));
    // Version 2, not the stored 3: a field another window changed since is refused as a conflict (ADR 0010), not overwritten.
    expect(callsTo('user-attribute/v2/user/firstbank')[0]?.body).toEqual({ attributes: { last_name: 'Carter-Jones' }, baseVersion: 2 });
    expect(window.sessionStorage.getItem('profile_draft')).toBeNull();
  });

  it('a kept draft of someone else is dropped unseen: the form shows the stored values', async () => {
    gateway();
    window.sessionStorage.setItem(
      'profile_draft',
      JSON.stringify({ siteId: 'firstbank', userId: 'someone-else', changes: { last_name: 'Not-Yours' }, baseVersion: 3 }),
    );
    renderPortal(`${BASE}edit-profile`);
    expect((await screen.findByLabelText<HTMLInputElement>(/^Last name/)).value).toBe('Carter');
    expect(screen.queryByText(/We've put back the changes/)).toBeNull();
    expect(window.sessionStorage.getItem('profile_draft')).toBeNull();
  });

  it('a refusal by the gateway (VALIDATION_FAILED) shows next to its field; nothing typed is lost', async () => {
    gateway({ 'POST user-attribute/v2/user/firstbank': { status: 400, data: { error: 'VALIDATION_FAILED', message: 'x', fields: { phone: 'invalid' } } } });
    renderPortal(`${BASE}edit-profile`);
    fireEvent.change(await screen.findByLabelText(/^Phone number/), { target: { value: '2125550123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    const phone = screen.getByLabelText<HTMLInputElement>(/^Phone number/);
    await waitFor(() => expect(phone.getAttribute('aria-invalid')).toBe('true'));
    // Described by its format hint (SPEC §5) and its error.
    const describedBy = (phone.getAttribute('aria-describedby') ?? '').split(' ');
    expect(describedBy.map((id) => document.getElementById(id)?.textContent ?? '').join(' ')).toContain('Enter it like \u2066(212) 555-0143\u2069.');
    expect(phone.value).toBe('(212) 555-0123');
    expect(callsTo('user-mgmt/user/update')).toHaveLength(0);
  });

  it('a refusal naming the attribute by its body path (attributes.first_name) shows next to that field too', async () => {
    gateway({
      'POST user-attribute/v2/user/firstbank': {
        status: 400,
        data: { error: 'VALIDATION_FAILED', message: 'x', fields: { 'attributes.first_name': 'invalidCharacter' } },
      },
    });
    renderPortal(`${BASE}edit-profile`);
    fireEvent.change(await screen.findByLabelText(/^First name/), { target: { value: 'Emilia' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    const firstName = screen.getByLabelText<HTMLInputElement>(/^First name/);
    await waitFor(() => expect(firstName.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(firstName.getAttribute('aria-describedby') ?? '')?.textContent).toContain('Please remove the hidden or control characters');
    expect(firstName.value).toBe('Emilia');
  });

  it('the form refuses an invalid value before anything is sent (the site schema, SPEC §5)', async () => {
    gateway();
    renderPortal(`${BASE}edit-profile`);
    fireEvent.change(await screen.findByLabelText(/^First name/), { target: { value: 'Em<ily>' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>(/^First name/).getAttribute('aria-invalid')).toBe('true'));
    expect(callsTo('user-attribute/v2/user/firstbank')).toHaveLength(0);
  });
});

describe('§2 site-settings: offer preferences saved with the whole object at its version', () => {
  it('ticks the stored categories; saves offers_preference in { siteId, attributes, version }', async () => {
    gateway({ 'POST user-attribute/user/attribute/firstbank': { status: 200, data: { siteId: 'firstbank', attributes: {}, version: 4 } } });
    renderPortal(`${BASE}site-settings`);
    expect((await screen.findByLabelText<HTMLInputElement>('Travel')).checked).toBe(true);
    fireEvent.click(screen.getByLabelText('Dining'));
    fireEvent.click(screen.getByRole('button', { name: 'Save preferences' }));
    expect(await screen.findByText('Your offer preferences have been saved.')).toBeTruthy();
    expect(callsTo('user-attribute/user/attribute/firstbank')[0]?.body).toEqual({
      siteId: 'firstbank',
      attributes: { ...ATTRIBUTES, offers_preference: ['dining', 'travel'] },
      version: 3,
    });
  });

  it('409: says another window changed them and shows the stored choice', async () => {
    let version = 3;
    gateway({
      'GET user-attribute/user/firstbank': () => record({ ...ATTRIBUTES, offers_preference: version === 3 ? ['travel'] : ['shopping'] }, version),
      'POST user-attribute/user/attribute/firstbank': () => {
        version = 4;
        return { status: 409, data: { error: 'ATTRIBUTES_CHANGED', message: 'x', current: { attributes: { offers_preference: ['shopping'] }, version: 4 } } };
      },
    });
    renderPortal(`${BASE}site-settings`);
    fireEvent.click(await screen.findByLabelText('Dining'));
    fireEvent.click(screen.getByRole('button', { name: 'Save preferences' }));
    expect(await screen.findByText(/Your preferences were changed in another window/)).toBeTruthy();
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Shopping').checked).toBe(true));
    expect(screen.getByLabelText<HTMLInputElement>('Dining').checked).toBe(false);
  });
});

describe('§2 cashback-statement (ADR 0010 my-cashback)', () => {
  const STATEMENT = {
    siteId: 'firstbank',
    lines: [
      {
        id: 'l1',
        assetId: 'a1',
        lastFour: '1111',
        productType: 'C',
        merchant: 'Blue Bottle Coffee',
        date: '2026-10-02',
        amountMinor: 1250,
        currency: 'USD',
        status: 'ELIGIBLE',
      },
      {
        id: 'l2',
        assetId: 'a2',
        lastFour: '4242',
        productType: null,
        merchant: 'City Books',
        date: '2026-09-28',
        amountMinor: 500,
        currency: 'USD',
        status: 'PENDING',
      },
      {
        id: 'l3',
        assetId: 'a1',
        lastFour: '1111',
        productType: 'C',
        merchant: 'Fuel Stop',
        date: '2026-09-20',
        amountMinor: 0,
        currency: 'USD',
        status: 'NOT_ELIGIBLE',
      },
    ],
    totals: [{ currency: 'USD', status: 'ELIGIBLE', amountMinor: 1250, count: 1 }],
  };

  it('loading state (aria-busy), then lines per card with product type, date and amount in the locale format and status badges', async () => {
    answerWith((call) => (call.url === 'my-cashback/firstbank' ? { status: 200, data: STATEMENT } : signedInAnswers(call)));
    renderPortal(`${BASE}cashback-statement`);
    // The statement's answer waits until the loading state has been seen.
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const fakeGateway = gatewayHttp.defaults.adapter as AxiosAdapter;
    gatewayHttp.defaults.adapter = async (config) => {
      if (config.url === 'my-cashback/firstbank') await answered;
      return fakeGateway(config);
    };
    const loading = await screen.findByRole('status', { name: 'Loading your statement…' });
    expect(loading.closest('section')?.getAttribute('aria-busy')).toBe('true');
    release();
    const card = (await screen.findByText('XXXX XXXX XXXX 1111')).closest('section') as HTMLElement;
    expect(within(card).getByText('FirstBank Signature')).toBeTruthy();
    expect(within(card).getByText('Oct 2, 2026')).toBeTruthy();
    expect(within(card).getByText('$12.50')).toBeTruthy();
    // The amount is the cashback, and its column says so (not "Amount", which read as the purchase).
    expect(
      within(card)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Date', 'Merchant', 'Cashback', 'Status']);
    expect(screen.getByRole('heading', { name: 'Cashback totals' })).toBeTruthy();
    expect(within(card).getByText('Fuel Stop')).toBeTruthy();
    expect(within(card).getByText('Eligible for cashback', { selector: 'td .badge' }).className).toContain('badge--positive');
    expect(within(card).getByText('Not eligible for cashback').className).toContain('badge--negative');
    const other = screen.getByText('XXXX XXXX XXXX 4242').closest('section') as HTMLElement;
    expect(within(other).getByText('FirstBank Card')).toBeTruthy();
    expect(within(other).getByText('Cashback eligibility pending').className).toContain('badge--pending');
    expect(screen.getByText('Transactions: 1')).toBeTruthy();
  });

  it('an empty statement says so', async () => {
    answerWith((call) =>
      call.url === 'my-cashback/firstbank' ? { status: 200, data: { siteId: 'firstbank', lines: [], totals: [] } } : signedInAnswers(call),
    );
    renderPortal(`${BASE}cashback-statement`);
    expect(await screen.findByText('No cashback activity yet. Purchases with your enrolled cards will show here.')).toBeTruthy();
  });
});

// ADR 0001 `cashback_enabled`: a programme without cashback (tejobank, sabana, …) offers no cashback statement.
describe('§2 cashback-statement on a site without cashback', () => {
  const withoutCashback = {
    ...firstbank,
    siteFeatureConfigurations: firstbank.siteFeatureConfigurations.map((feature) =>
      feature.name === 'pan_capture' ? { ...feature, featureConfig: { ...feature.featureConfig, cashback_enabled: 'false' } } : feature,
    ),
  };
  const siteAnswer = { 'GET site-config-service/config/site/firstbank': { status: 200, data: withoutCashback } };

  it('the profile links to every other screen, not to the cashback statement', async () => {
    gateway(siteAnswer);
    renderPortal(`${BASE}profile`);
    const links = await screen.findByRole('navigation', { name: 'Manage your account' });
    expect(
      within(links)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['edit-profile', 'site-settings', 'edit-pan', 'password', 'mfa-setup', 'signed-in-devices', 'delete-profile'].map((route) => `${BASE}${route}`));
  });

  it('the route (a bookmark) says the programme has none, and asks the gateway for no statement', async () => {
    gateway(siteAnswer);
    renderPortal(`${BASE}cashback-statement`);
    expect(await screen.findByText('This programme has no cashback, so there is no cashback statement.')).toBeTruthy();
    expect(screen.queryByText('No cashback activity yet. Purchases with your enrolled cards will show here.')).toBeNull();
    expect(callsTo('my-cashback/firstbank')).toHaveLength(0);
  });
});

// One digit system per page (schemas/locales/intl-format.ts): a date, an amount or a count the site shows is in the
// Latin digits of the page's number-like fields (SPEC §5), in Arabic too, never ١٢ beside 6612 3456.
describe('ar_qa (dohabank): dates, amounts and counts in the Latin digits of the rest of the page', () => {
  const ARABIC_INDIC_DIGITS = /[\u0660-\u0669\u06f0-\u06f9]/;
  const ENROLLED = { ...PROFILE, mfaEnrollmentStatus: 'ENROLLED' };

  it('the profile shows the date of birth as the phone is shown: 12 أبريل 1988 beside 6612 3456', async () => {
    answerWith((call) =>
      call.url === 'user-attribute/user/dohabank'
        ? record({ first_name: 'Mariam', last_name: 'Al-Kuwari', dob: '1988-04-12', phone: '66123456' }, 3, 'dohabank')
        : signedInAnswers(call, ENROLLED),
    );
    renderPortal('/dohabank/ar_qa/account/profile');
    await waitFor(() => expect(detail('dob')).not.toBe(''));
    expect(detail('dob')).toBe('12 أبريل 1988');
    expect(detail('phone')).toBe('6612 3456');
  });

  it('the cashback statement writes its dates, amounts and counts in Latin digits', async () => {
    const statement = {
      siteId: 'dohabank',
      lines: [
        {
          id: 'l1',
          assetId: 'a1',
          lastFour: '1881',
          productType: 'I',
          merchant: 'Villaggio Mall',
          date: '2026-11-03',
          amountMinor: 2200,
          currency: 'QAR',
          status: 'PENDING',
        },
      ],
      totals: [{ currency: 'QAR', status: 'PENDING', amountMinor: 123450, count: 12 }],
    };
    answerWith((call) => (call.url === 'my-cashback/dohabank' ? { status: 200, data: statement } : signedInAnswers(call, ENROLLED)));
    renderPortal('/dohabank/ar_qa/account/cashback-statement');
    const card = (await screen.findByText('XXXX XXXX XXXX 1881')).closest('section') as HTMLElement;
    expect(card.querySelector('.statement-table__date')?.textContent).toBe('03\u200f/11\u200f/2026');
    expect(card.querySelector('td.statement-table__amount')?.textContent).toContain('22.00');
    expect(document.querySelector('dd.statement-table__amount')?.textContent).toContain('1,234.50');
    expect(screen.getByText('Transactions: 12')).toBeTruthy();
    expect(screen.getByRole('main').textContent).not.toMatch(ARABIC_INDIC_DIGITS);
  });
});
