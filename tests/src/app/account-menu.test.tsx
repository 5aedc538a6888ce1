// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  answerWith,
  callsTo,
  PROFILE,
  renderPortal,
  resetFakePortal,
  signedInAnswers,
  signInTheBrowser,
  type Answer,
  type SentCall,
} from '../screens/support/fake-portal';

/**
 * The signed-in frame's account menu (SPEC §2 root screen, ADR 0014), over the fake gateway with
 * the real router, store, guards and screens: a disclosure button (aria-expanded, aria-controls),
 * exactly the routes the guards let this person open, Escape, outside click and navigation closing
 * it, Sign out through the logout route, and the agent's variant.
 */
const BASE = '/firstbank/en_us/account/';

function cardHolder(profile: typeof PROFILE = PROFILE, answers: Record<string, Answer> = {}) {
  answerWith(
    (call: SentCall) =>
      answers[call.url] ?? (call.url === 'user-attribute/user/firstbank' ? { status: 200, data: { userSites: {} } } : signedInAnswers(call, profile)),
  );
}

async function openMenu(name: string | RegExp): Promise<{ button: HTMLElement; panel: HTMLElement }> {
  const menu = await screen.findByRole('navigation', { name: 'Your account' });
  const button = await within(menu).findByRole('button', { name });
  fireEvent.click(button);
  const panel = document.getElementById(button.getAttribute('aria-controls') ?? '');
  if (panel === null) throw new Error('aria-controls names no element');
  return { button, panel };
}

const linkNames = (panel: HTMLElement) =>
  within(panel)
    .getAllByRole('link')
    .map((link) => link.textContent);

beforeEach(() => {
  resetFakePortal();
  signInTheBrowser();
});
afterEach(cleanup);

describe('account menu of a card holder', () => {
  it('is a collapsed disclosure button named for the holder; opening it shows the routes the site allows and Sign out', async () => {
    cardHolder();
    renderPortal(`${BASE}profile`);
    const menu = await screen.findByRole('navigation', { name: 'Your account' });
    const button = await within(menu).findByRole('button', { name: 'Emily Carter' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    const panel = document.getElementById(button.getAttribute('aria-controls') ?? '')!;
    expect(panel.hidden).toBe(true);
    expect(within(menu).queryByRole('link')).toBeNull();

    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(panel.hidden).toBe(false);
    // firstbank: cards captured, offer preferences shown, MFA optional (SPEC §2 guards).
    expect(linkNames(panel)).toEqual([
      'My profile',
      'Edit profile',
      'Manage cards',
      'Cashback statement',
      'Preferences',
      'Change password',
      'Set up two-step verification',
      'Signed-in devices',
      'Sign out',
    ]);
    expect(within(panel).getByRole('link', { name: 'My profile' }).getAttribute('aria-current')).toBe('page');
    expect(within(panel).getByRole('link', { name: 'Sign out' }).getAttribute('href')).toBe(`${BASE}logout`);
  });

  it('once the authenticator is on, the menu names its page "Two-step verification", not a set-up', async () => {
    cardHolder({ ...PROFILE, mfaEnrollmentStatus: 'ENROLLED' });
    renderPortal(`${BASE}profile`);
    const { panel } = await openMenu('Emily Carter');
    // The profile (which says the authenticator is on) may come after the menu opens.
    await waitFor(() => expect(linkNames(panel)).toContain('Two-step verification'));
    expect(linkNames(panel)).not.toContain('Set up two-step verification');
  });

  it('on a site with MFA off and no offer preferences those links are absent (bancosol has MFA off)', async () => {
    answerWith((call: SentCall) => (call.url === 'user-attribute/user/bancosol' ? { status: 200, data: { userSites: {} } } : signedInAnswers(call)));
    renderPortal('/bancosol/en_us/account/profile');
    const { panel } = await openMenu('Emily Carter');
    expect(linkNames(panel)).not.toContain('Set up two-step verification');
    expect(linkNames(panel)).toContain('Change password');
  });

  it('before a required authenticator is set up it offers only that set-up and Sign out (dohabank mfa "required")', async () => {
    answerWith((call: SentCall) => (call.url === 'user-attribute/user/dohabank' ? { status: 200, data: { userSites: {} } } : signedInAnswers(call)));
    renderPortal('/dohabank/en_us/account/mfa-setup');
    const { panel } = await openMenu('Emily Carter');
    expect(linkNames(panel)).toEqual(['Set up two-step verification', 'Sign out']);
  });

  // ADR 0009: while the gateway holds the account, every account screen leads back to the replacement.
  it('while a breached password awaits its replacement it offers only Sign out, no page that bounces back', async () => {
    cardHolder(PROFILE, { 'user-mgmt/user/find': { status: 403, data: { error: 'PASSWORD_CHANGE_REQUIRED', message: 'x' } } });
    const { router } = renderPortal(`${BASE}profile`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}compromised-credentials`));
    const { panel } = await openMenu('My account');
    expect(linkNames(panel)).toEqual(['Sign out']);
  });

  it('shows a neutral label when the holder has no name on record', async () => {
    cardHolder({ ...PROFILE, firstName: '', lastName: '' });
    renderPortal(`${BASE}profile`);
    await openMenu('My account');
  });

  it('Escape closes it and gives focus back to the button', async () => {
    cardHolder();
    renderPortal(`${BASE}profile`);
    const { button, panel } = await openMenu('Emily Carter');
    const first = within(panel).getByRole('link', { name: 'My profile' });
    first.focus();
    fireEvent.keyDown(first, { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(panel.hidden).toBe(true);
    expect(document.activeElement).toBe(button);
  });

  it('a click outside and focus moving out close it; focus moving inside keeps it open', async () => {
    cardHolder();
    renderPortal(`${BASE}profile`);
    const { button, panel } = await openMenu('Emily Carter');
    fireEvent.blur(button, { relatedTarget: within(panel).getByRole('link', { name: 'Manage cards' }) });
    expect(panel.hidden).toBe(false);
    fireEvent.pointerDown(document.body);
    expect(button.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(button);
    fireEvent.blur(within(panel).getByRole('link', { name: 'Sign out' }), { relatedTarget: screen.getByRole('heading', { level: 1 }) });
    expect(panel.hidden).toBe(true);
  });

  it('following a link navigates and closes the menu', async () => {
    cardHolder();
    const { router } = renderPortal(`${BASE}profile`);
    const { button, panel } = await openMenu('Emily Carter');
    fireEvent.click(within(panel).getByRole('link', { name: 'Cashback statement' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}cashback-statement`));
    await waitFor(() => expect(button.getAttribute('aria-expanded')).toBe('false'));
  });

  it('Sign out revokes the session and ends on the sign-in page; no menu is shown there', async () => {
    cardHolder(PROFILE, {
      'user-auth/tokens/revoke': { status: 200, data: {}, setCookie: 'gmap_authenticated=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/' },
    });
    const { router } = renderPortal(`${BASE}profile`);
    const { panel } = await openMenu('Emily Carter');
    fireEvent.click(within(panel).getByRole('link', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}login-form`));
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(callsTo('user-auth/tokens/revoke')).toHaveLength(1);
    expect(screen.queryByRole('navigation', { name: 'Your account' })).toBeNull();
  });

  it('Sign out with an expired session (the revoke answers 401) still ends on the sign-in page, with no error shown', async () => {
    cardHolder(PROFILE, { 'user-auth/tokens/revoke': { status: 401, data: { error: 'UNAUTHORIZED', message: 'Session expired' } } });
    const { router } = renderPortal(`${BASE}profile`);
    const { panel } = await openMenu('Emily Carter');
    fireEvent.click(within(panel).getByRole('link', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}login-form`));
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(document.cookie).not.toContain('gmap_authenticated=true');
  });
});

describe('account menu of a support agent (ADR 0014)', () => {
  const ACTING_FOR = { primaryUserIdentifier: '6a1f0c3e-0000-4000-8000-000000000001', firstName: 'Emily', lastName: 'Carter' };

  function agent(acting: { now: boolean }) {
    document.cookie = 'gmap_user_type=CONCIERGE; Path=/';
    answerWith((call: SentCall) => {
      const key = `${call.method} ${call.url}`;
      if (key === 'POST user-mgmt/user/concierge/stop-acting') {
        acting.now = false;
        return { status: 200, data: { actingFor: null } };
      }
      if (key === 'GET user-mgmt/user/concierge/act-for') return { status: 200, data: { actingFor: acting.now ? ACTING_FOR : null } };
      if (call.url === 'user-mgmt/user/find-concierge') return { status: 200, data: PROFILE };
      if (call.url === 'user-attribute/concierge/user/firstbank') return { status: 200, data: { userSites: {} } };
      if (call.url === 'user-attribute/concierge/user/assets/firstbank') return { status: 200, data: [] };
      return signedInAnswers(call);
    });
  }

  it('names who the agent acts for, offers the holder’s screens an agent may use (named for the holder) and no credential screen, and can stop acting', async () => {
    const acting = { now: true };
    agent(acting);
    const { router } = renderPortal(`${BASE}profile`);
    const { button, panel } = await openMenu('Support agent');
    expect(within(panel).getByText('You are acting for Emily Carter')).toBeTruthy();
    // The gateway lets an agent read and save the profile, read the cards, the cashback and the preferences (ADR 0014).
    // The names wait for the holder's name (the acting-for answer), which may come after the menu opens.
    await waitFor(() =>
      expect(linkNames(panel)).toEqual([
        "Emily Carter's profile",
        "Edit Emily Carter's profile",
        "Emily Carter's cards",
        'Cashback statement',
        'Preferences',
        'Support agent',
        'Sign out',
      ]),
    );
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe("Emily Carter's profile"));
    await waitFor(() => expect(document.title).toBe("FirstBank Rewards - Emily Carter's profile - Rewards Portal"));
    fireEvent.click(within(panel).getByRole('button', { name: 'Stop acting' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}concierge`));
    expect(callsTo('user-mgmt/user/concierge/stop-acting')).toHaveLength(1);
    await screen.findByRole('heading', { level: 1, name: 'Support agent' });
    await waitFor(() => expect(button.getAttribute('aria-expanded')).toBe('false'));
    fireEvent.click(button);
    await waitFor(() => expect(within(panel).queryByText(/You are acting for/)).toBeNull());
    expect(linkNames(panel)).toEqual(['Support agent', 'Sign out']);
    expect(within(panel).queryByRole('button', { name: 'Stop acting' })).toBeNull();
  });
});

describe('a support agent on a card holder’s own screen (ADR 0014)', () => {
  it.each([
    ['password', 'Change password'],
    ['delete-profile', 'Delete account'],
  ])('%s sends the agent to the concierge screen and says why, naming the screen', async (route, title) => {
    document.cookie = 'gmap_user_type=CONCIERGE; Path=/';
    answerWith((call: SentCall) => {
      if (call.url === 'user-mgmt/user/concierge/act-for')
        return { status: 200, data: { actingFor: { primaryUserIdentifier: 'u1', firstName: 'Emily', lastName: 'Carter' } } };
      if (call.url === 'user-mgmt/user/find-concierge') return { status: 200, data: PROFILE };
      if (call.url === 'user-attribute/concierge/user/firstbank') return { status: 200, data: { userSites: {} } };
      if (call.url === 'user-attribute/concierge/user/assets/firstbank') return { status: 200, data: [] };
      return signedInAnswers(call);
    });
    const { router } = renderPortal(`${BASE}${route}`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}concierge`));
    const notice = await screen.findByText(`Only the card holder can open “${title}”`, { exact: false });
    expect(notice.textContent).toContain('a support agent never changes a password');
  });

  it('the cards screen shows the holder’s cards to read and says why they cannot be changed here', async () => {
    document.cookie = 'gmap_user_type=CONCIERGE; Path=/';
    answerWith((call: SentCall) => {
      if (call.url === 'user-mgmt/user/concierge/act-for')
        return { status: 200, data: { actingFor: { primaryUserIdentifier: 'u1', firstName: 'Emily', lastName: 'Carter' } } };
      if (call.url === 'user-mgmt/user/find-concierge') return { status: 200, data: PROFILE };
      if (call.url === 'user-attribute/concierge/user/firstbank') return { status: 200, data: { userSites: {} } };
      if (call.url === 'user-attribute/concierge/user/assets/firstbank') return { status: 200, data: [] };
      return signedInAnswers(call);
    });
    const { router } = renderPortal(`${BASE}edit-pan`);
    await screen.findByRole('heading', { level: 1, name: "Emily Carter's cards" });
    expect(router.state.location.pathname).toBe(`${BASE}edit-pan`);
    expect(screen.getByText(/Only the card holder can add, remove or choose a default card/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Add card/ })).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});

describe('no account menu without a signed-in visitor', () => {
  it('the sign-in page has none', async () => {
    resetFakePortal();
    renderPortal(`${BASE}login-form`);
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(screen.queryByRole('navigation', { name: 'Your account' })).toBeNull();
  });
});
