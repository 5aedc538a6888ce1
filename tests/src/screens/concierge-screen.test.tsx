// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  answerWith,
  callsTo,
  PROFILE,
  renderPortal,
  resetFakePortal,
  sent,
  signedInAnswers,
  signInTheBrowser,
  type Answer,
  type SentCall,
} from './support/fake-portal';

/**
 * docs/decisions/0014-concierge.md, over the fake gateway: the concierge screen finds a
 * card holder by e-mail (errors next to the field), the banner names who the agent acts for and stops
 * it, the profile reads and saves through the concierge calls (SPEC §7), and a card holder never gets in.
 */
const BASE = '/firstbank/en_us/account/';
const EMILY = { ...PROFILE, primaryUserIdentifier: '6a1f0c3e-0000-4000-8000-000000000001' };
const ACTING_FOR = { primaryUserIdentifier: EMILY.primaryUserIdentifier, firstName: 'Emily', lastName: 'Carter' };
const ATTRIBUTES = {
  first_name: 'Emily',
  last_name: 'Carter',
  dob: '1988-04-12',
  phone: '2025550143',
  ninedigitbin: '411111111',
  nationalId: '536224189',
  marketing_opt_ins: { email: { optin: true }, transactional: { optin: false }, online: { optin: false }, cashback: { optin: false } },
};

/** A signed-in agent's gateway; `acting` is the server-side choice the act-for and stop calls change. */
function agentGateway(options: { acting?: boolean; answers?: Record<string, Answer> } = {}) {
  let acting = options.acting ?? false;
  answerWith((call: SentCall) => {
    const key = `${call.method} ${call.url}`;
    const answer = options.answers?.[key];
    if (answer) {
      if (key === 'POST user-mgmt/user/concierge/act-for' && answer.status === 200) acting = true;
      return answer;
    }
    if (key === 'POST user-mgmt/user/concierge/act-for') {
      acting = true;
      return { status: 200, data: { actingFor: ACTING_FOR } };
    }
    if (key === 'POST user-mgmt/user/concierge/stop-acting') {
      acting = false;
      return { status: 200, data: { actingFor: null } };
    }
    if (key === 'GET user-mgmt/user/concierge/act-for') return { status: 200, data: { actingFor: acting ? ACTING_FOR : null } };
    const notActing: Answer = { status: 409, data: { error: 'NOT_ACTING_FOR_USER', message: 'Choose the card holder to act for first.' } };
    if (call.url === 'user-mgmt/user/find-concierge') return acting ? { status: 200, data: EMILY } : notActing;
    if (call.url === 'user-attribute/concierge/user/firstbank')
      return acting ? { status: 200, data: { userSites: { firstbank: { siteId: 'firstbank', attributes: ATTRIBUTES, version: 2 } } } } : notActing;
    if (call.url === 'user-attribute/concierge/user/assets/firstbank') return acting ? { status: 200, data: [] } : notActing;
    return signedInAnswers(call);
  });
}

beforeEach(() => {
  resetFakePortal();
  signInTheBrowser();
});
afterEach(cleanup);

describe('ADR 0014 concierge screen', () => {
  beforeEach(() => {
    document.cookie = 'gmap_user_type=CONCIERGE; Path=/';
  });

  it('an agent acting for nobody is sent from the profile to the concierge screen', async () => {
    agentGateway();
    const { router } = renderPortal(`${BASE}profile`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Support agent' })).toBeTruthy();
    expect(router.state.location.pathname).toBe(`${BASE}concierge`);
    expect(screen.getByText('You are not acting for anyone yet.')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Support agent mode' })).toBeNull();
  });

  it('says next to the field when the address is empty or malformed, and sends nothing', async () => {
    agentGateway();
    renderPortal(`${BASE}concierge`);
    const field = await screen.findByLabelText("Card holder's e-mail address");
    fireEvent.click(screen.getByRole('button', { name: 'Act for this card holder' }));
    const required = await screen.findByRole('alert');
    expect(required.textContent).toBe("Enter the card holder's e-mail address.");
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toBe(required.id);
    fireEvent.change(field, { target: { value: 'emily at example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Act for this card holder' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Enter a valid e-mail address, like name@example.com.');
    expect(callsTo('user-mgmt/user/concierge/act-for').filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('an unknown address: 404 USER_NOT_FOUND is said next to the field, and the agent stays', async () => {
    agentGateway({
      answers: {
        'POST user-mgmt/user/concierge/act-for': { status: 404, data: { error: 'USER_NOT_FOUND', message: 'No card holder', fields: { email: 'notFound' } } },
      },
    });
    const { router } = renderPortal(`${BASE}concierge`);
    fireEvent.change(await screen.findByLabelText("Card holder's e-mail address"), { target: { value: 'nobody@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Act for this card holder' }));
    expect((await screen.findByRole('alert')).textContent).toBe('No card holder has this e-mail address on this site.');
    expect(router.state.location.pathname).toBe(`${BASE}concierge`);
  });

  it('acting for Emily: the profile is hers through the concierge calls, the banner names her, an opt-in saves through the concierge twin, no credential links', async () => {
    agentGateway({
      answers: { 'POST user-attribute/concierge/v2/user/firstbank': { status: 200, data: { siteId: 'firstbank', attributes: ATTRIBUTES, version: 3 } } },
    });
    const { router } = renderPortal(`${BASE}concierge`);
    fireEvent.change(await screen.findByLabelText("Card holder's e-mail address"), { target: { value: ' emily.carter@example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Act for this card holder' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}profile`));
    expect(callsTo('user-mgmt/user/concierge/act-for').find((call) => call.method === 'POST')?.body).toEqual({ email: 'emily.carter@example.com' });
    const banner = await screen.findByRole('region', { name: 'Support agent mode' });
    expect(within(banner).getByText(/You are acting for Emily Carter/)).toBeTruthy();
    expect(await screen.findByText(EMILY.email)).toBeTruthy();
    // SPEC §7: the concierge reads, never the agent's own.
    expect(callsTo('user-attribute/concierge/user/firstbank').length).toBeGreaterThan(0);
    expect(sent.filter((call) => call.url === 'user-attribute/user/firstbank' || call.url === 'user-mgmt/user/find')).toHaveLength(0);
    // ADR 0014: no way to the credential screens; the cards screen only to read them.
    const links = await screen.findByRole('navigation', { name: 'Manage your account' });
    expect(
      within(links)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['edit-profile', 'site-settings', 'cashback-statement', 'edit-pan'].map((route) => `${BASE}${route}`));
    // Named for the holder, as the screens they open: the cards are hers to read, not "Manage cards".
    expect(within(links).getByRole('link', { name: "Emily Carter's cards" })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Add or manage cards' })).toBeNull();

    fireEvent.click(screen.getByLabelText('Show me personalized offers online'));
    fireEvent.click(screen.getByRole('button', { name: 'Save marketing preferences' }));
    expect(await screen.findByText('Your marketing preferences have been saved.')).toBeTruthy();
    expect(callsTo('user-attribute/concierge/v2/user/firstbank')[0]?.body).toEqual({
      attributes: { marketing_opt_ins: { online: { optin: true } } },
      baseVersion: 2,
    });
    expect(callsTo('user-attribute/v2/user/firstbank')).toHaveLength(0);
  });

  it("edit-profile for Emily saves the changed key and copies her profile through the concierge calls, never the agent's own", async () => {
    agentGateway({
      acting: true,
      answers: {
        'POST user-attribute/concierge/v2/user/firstbank': { status: 200, data: { siteId: 'firstbank', attributes: ATTRIBUTES, version: 3 } },
        'POST user-mgmt/user/concierge/update': { status: 200, data: EMILY },
      },
    });
    const { router } = renderPortal(`${BASE}edit-profile`);
    const lastName = await screen.findByLabelText<HTMLInputElement>(/^Last name/);
    expect(lastName.value).toBe('Carter');
    fireEvent.change(lastName, { target: { value: 'Carter-Jones' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}profile`));
    expect(callsTo('user-attribute/concierge/v2/user/firstbank')[0]?.body).toEqual({ attributes: { last_name: 'Carter-Jones' }, baseVersion: 2 });
    expect(callsTo('user-mgmt/user/concierge/update')).toHaveLength(1);
    expect(sent.filter((call) => call.url === 'user-attribute/v2/user/firstbank' || call.url === 'user-mgmt/user/update')).toHaveLength(0);
  });

  it('the banner stop button ends acting and goes back to the concierge screen', async () => {
    agentGateway({ acting: true });
    const { router } = renderPortal(`${BASE}profile`);
    const banner = await screen.findByRole('region', { name: 'Support agent mode' });
    fireEvent.click(within(banner).getByRole('button', { name: 'Stop acting' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}concierge`));
    expect(callsTo('user-mgmt/user/concierge/stop-acting')).toHaveLength(1);
    expect(await screen.findByText('You are not acting for anyone yet.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Support agent mode' })).toBeNull());
  });

  it.each(['password', 'delete-profile', 'mfa-setup'])('%s sends an agent, even one acting for someone, to the concierge screen, saying why', async (route) => {
    agentGateway({ acting: true });
    const { router } = renderPortal(`${BASE}${route}`);
    await screen.findByRole('heading', { level: 1, name: 'Support agent' });
    expect(router.state.location.pathname).toBe(`${BASE}concierge`);
    expect(await screen.findByText(/^Only the card holder can open “.+”: a support agent never changes a password/)).toBeTruthy();
  });
});

describe('a card holder', () => {
  it('is sent from the concierge screen to the profile and no concierge call is made', async () => {
    answerWith((call) => signedInAnswers(call) ?? (call.url === 'user-attribute/user/firstbank' ? { status: 200, data: { userSites: {} } } : undefined));
    const { router } = renderPortal(`${BASE}concierge`);
    await screen.findByRole('heading', { level: 1, name: 'My profile' });
    expect(router.state.location.pathname).toBe(`${BASE}profile`);
    expect(sent.filter((call) => call.url.includes('concierge'))).toHaveLength(0);
    expect(screen.queryByRole('region', { name: 'Support agent mode' })).toBeNull();
  });
});
