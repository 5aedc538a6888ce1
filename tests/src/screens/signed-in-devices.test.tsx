// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deviceName } from '../../../src/screens/SignedInDevicesScreen';
import { answerWith, callsTo, renderPortal, resetFakePortal, sent, signedInAnswers, signInTheBrowser, type Answer, type SentCall } from './support/fake-portal';

/**
 * The signed-in devices screen (ADR 0025 "Sessions the holder can see") over the fake gateway: each session with its
 * site, device, masked first address and times in the page's locale, "This device" for the one in hand; "Sign out"
 * on each other one and "Sign out everywhere else" behind a confirmation, each followed by the list loaded again;
 * the trusted devices; and the way there from the profile.
 */
const BASE = '/firstbank/en_us/account/';
const PHONE = '5f0c2b4e-1d7a-4c3e-9b8f-2a6d4e1c7b90';
const LAPTOP = '8e2d4a6c-3b1f-4e5d-a7c9-0f1e2d3c4b5a';
const TRUST = '1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d';

const THIS_PHONE = {
  id: PHONE,
  site: { id: 'firstbank', name: 'FirstBank Rewards' },
  device: { browser: 'Chrome', os: 'Android' },
  firstAddress: '203.0.*.*',
  createdAt: '2026-03-02T09:15:00.000Z',
  lastUsedAt: '2026-03-02T09:40:00.000Z',
  current: true,
};
const OTHER_LAPTOP = {
  id: LAPTOP,
  site: { id: 'eurobank', name: 'Eurobank Vorteilsprogramm' },
  device: { browser: 'Firefox', os: 'Windows' },
  firstAddress: '2001:db8:85a3:*',
  createdAt: '2026-03-01T18:02:00.000Z',
  lastUsedAt: '2026-03-02T08:55:00.000Z',
  current: false,
};
const TRUSTED = {
  id: TRUST,
  site: { id: 'firstbank', name: 'FirstBank Rewards' },
  device: { browser: 'Chrome', os: 'Android' },
  createdAt: '2026-03-02T09:15:00.000Z',
  expiresAt: '2026-03-02T09:30:00.000Z',
  current: true,
};

const shown = (iso: string) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** The gateway: the list as `lists` says (it changes once a device is signed out), and what each end answers. */
function gateway(state: { sessions: unknown[]; trustedDevices: unknown[] }, ends: Record<string, Answer> = {}) {
  answerWith((call: SentCall) => {
    if (call.method === 'GET' && call.url === 'user-mgmt/user/sessions') return { status: 200, data: structuredClone(state) };
    const end = ends[call.url];
    if (call.method === 'POST' && end !== undefined) return end;
    return signedInAnswers(call);
  });
}

beforeEach(() => {
  resetFakePortal();
  signInTheBrowser();
});
afterEach(cleanup);

function deviceCard(name: string): HTMLElement {
  return screen.getByRole('heading', { level: 3, name }).closest('li') as HTMLElement;
}

function detail(card: HTMLElement, label: string): string {
  return within(card).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent ?? '';
}

describe('ADR 0025: the signed-in devices screen', () => {
  it('lists each session with its site, device, masked first address and times; "This device" for this one, Sign out only for the others', async () => {
    gateway({ sessions: [THIS_PHONE, OTHER_LAPTOP], trustedDevices: [] });
    renderPortal(`${BASE}signed-in-devices`);
    await screen.findByRole('heading', { level: 1, name: 'Signed-in devices' });
    const list = await screen.findByRole('region', { name: 'Signed in now' });
    expect(
      within(list)
        .getAllByRole('heading', { level: 3 })
        .map((heading) => heading.textContent),
    ).toEqual(['Chrome on Android', 'Firefox on Windows']);

    const phone = deviceCard('Chrome on Android');
    expect(within(phone).getByText('This device')).toBeTruthy();
    expect(detail(phone, 'Site')).toBe('FirstBank Rewards');
    expect(detail(phone, 'First used from')).toBe('203.0.*.*');
    expect(detail(phone, 'Signed in')).toBe(shown(THIS_PHONE.createdAt));
    expect(detail(phone, 'Last active')).toBe('Active now');
    expect(within(phone).queryByRole('button')).toBeNull();

    const laptop = deviceCard('Firefox on Windows');
    expect(within(laptop).queryByText('This device')).toBeNull();
    expect(detail(laptop, 'Site')).toBe('Eurobank Vorteilsprogramm');
    expect(detail(laptop, 'First used from')).toBe('2001:db8:85a3:*');
    expect(detail(laptop, 'Last active')).toBe(shown(OTHER_LAPTOP.lastUsedAt));
    expect(within(laptop).getByText(shown(OTHER_LAPTOP.lastUsedAt)).getAttribute('datetime')).toBe(OTHER_LAPTOP.lastUsedAt);
    // One "Sign out", described by the device it signs out.
    const signOut = within(laptop).getByRole('button', { name: 'Sign out' });
    expect(document.getElementById(signOut.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Firefox on Windows');
    expect(screen.getAllByRole('button', { name: 'Sign out' })).toHaveLength(1);
    expect(screen.getByText(/Addresses are shortened/)).toBeTruthy();
    // No trusted device: no such section.
    expect(screen.queryByRole('region', { name: 'Trusted devices' })).toBeNull();
  });

  it('Sign out ends that session, says so, loads the list again and puts the focus on it', async () => {
    const state = { sessions: [THIS_PHONE, OTHER_LAPTOP], trustedDevices: [] as unknown[] };
    gateway(state, { [`user-mgmt/user/sessions/${LAPTOP}/revoke`]: { status: 200, data: { revoked: true } } });
    renderPortal(`${BASE}signed-in-devices`);
    const laptop = await screen.findByRole('heading', { level: 3, name: 'Firefox on Windows' });
    state.sessions = [THIS_PHONE];
    fireEvent.click(within(laptop.closest('li') as HTMLElement).getByRole('button', { name: 'Sign out' }));

    await screen.findByText('Firefox on Windows has been signed out.');
    await waitFor(() => expect(screen.queryByRole('heading', { level: 3, name: 'Firefox on Windows' })).toBeNull());
    expect(callsTo(`user-mgmt/user/sessions/${LAPTOP}/revoke`)).toHaveLength(1);
    expect(callsTo(`user-mgmt/user/sessions/${LAPTOP}/revoke`)[0]!.headers['x-site-id']).toBe('firstbank');
    expect(callsTo('user-mgmt/user/sessions').length).toBeGreaterThanOrEqual(2);
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Signed in now' }));
    expect(screen.getByText('No other device is signed in.')).toBeTruthy();
    // Nothing else to sign out: no "everywhere else".
    expect(screen.queryByRole('button', { name: 'Sign out everywhere else' })).toBeNull();
  });

  it('a refusal is said on the screen; a session that had already ended counts as signed out', async () => {
    const state = { sessions: [THIS_PHONE, OTHER_LAPTOP], trustedDevices: [] as unknown[] };
    gateway(state, {
      [`user-mgmt/user/sessions/${LAPTOP}/revoke`]: { status: 409, data: { error: 'CURRENT_SESSION', message: 'This is the device you are using.' } },
    });
    renderPortal(`${BASE}signed-in-devices`);
    const laptop = await screen.findByRole('heading', { level: 3, name: 'Firefox on Windows' });
    fireEvent.click(within(laptop.closest('li') as HTMLElement).getByRole('button', { name: 'Sign out' }));
    expect((await screen.findByRole('alert')).textContent).toBe("We couldn't sign that device out. Please try again.");

    gateway(state, { [`user-mgmt/user/sessions/${LAPTOP}/revoke`]: { status: 404, data: { error: 'SESSION_NOT_FOUND', message: 'None of your devices.' } } });
    state.sessions = [THIS_PHONE];
    fireEvent.click(within(laptop.closest('li') as HTMLElement).getByRole('button', { name: 'Sign out' }));
    await screen.findByText('Firefox on Windows has been signed out.');
    expect(screen.queryByText("We couldn't sign that device out. Please try again.")).toBeNull();
  });

  it('Sign out everywhere else asks first; Cancel sends nothing, the confirmation ends the others and loads the list again', async () => {
    const state = { sessions: [THIS_PHONE, OTHER_LAPTOP], trustedDevices: [TRUSTED] as unknown[] };
    gateway(state, { 'user-mgmt/user/sessions/revoke-all': { status: 200, data: { sessionsEnded: 1, trustedDevicesEnded: 1 } } });
    renderPortal(`${BASE}signed-in-devices`);
    const everywhere = await screen.findByRole('button', { name: 'Sign out everywhere else' });

    fireEvent.click(everywhere);
    const dialog = screen.getByRole('dialog', { name: 'Sign out everywhere else?' });
    expect(within(dialog).getByText(/Every other device will be signed out, on every site/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(callsTo('user-mgmt/user/sessions/revoke-all')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    state.sessions = [THIS_PHONE];
    state.trustedDevices = [];
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Sign out everywhere else' }));
    await screen.findByText("You're now signed out everywhere else.");
    expect(callsTo('user-mgmt/user/sessions/revoke-all')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Trusted devices' })).toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('heading', { level: 3, name: 'Firefox on Windows' })).toBeNull();
  });

  it('lists the trusted devices with their site and how long they stay trusted, this one marked', async () => {
    gateway({ sessions: [THIS_PHONE], trustedDevices: [TRUSTED, { ...TRUSTED, id: 'x', device: { browser: null, os: null }, current: false }] });
    renderPortal(`${BASE}signed-in-devices`);
    const trusted = await screen.findByRole('region', { name: 'Trusted devices' });
    const [mine, unknown] = within(trusted).getAllByRole('listitem');
    expect(within(mine!).getByRole('heading', { level: 3 }).textContent).toBe('Chrome on Android');
    expect(within(mine!).getByText('This device')).toBeTruthy();
    expect(detail(mine!, 'Trusted until')).toBe(shown(TRUSTED.expiresAt));
    expect(within(unknown!).getByRole('heading', { level: 3 }).textContent).toBe('Unknown device');
    // A trusted device alone is reason enough to offer "everywhere else".
    expect(screen.getByRole('button', { name: 'Sign out everywhere else' })).toBeTruthy();
  });

  it('says so when the list cannot be loaded', async () => {
    answerWith((call) =>
      call.url === 'user-mgmt/user/sessions' ? { status: 503, data: { error: 'SERVICE_UNAVAILABLE', message: 'down' } } : signedInAnswers(call),
    );
    renderPortal(`${BASE}signed-in-devices`);
    expect((await screen.findByText("We couldn't load your devices. Please try again later.")).getAttribute('role')).toBe('alert');
  });

  it('is linked from the profile, beside the password and two-step verification', async () => {
    answerWith((call) =>
      call.url === 'user-attribute/user/firstbank'
        ? { status: 200, data: { userSites: { firstbank: { siteId: 'firstbank', attributes: {}, version: 1 } } } }
        : signedInAnswers(call),
    );
    renderPortal(`${BASE}profile`);
    const links = await screen.findByRole('navigation', { name: 'Manage your account' });
    const link = within(links).getByRole('link', { name: 'Signed-in devices' });
    expect(link.getAttribute('href')).toBe(`${BASE}signed-in-devices`);
    expect(sent.some((call) => call.url === 'user-mgmt/user/sessions')).toBe(false);
  });
});

describe('deviceName', () => {
  const text = (key: string, values: Record<string, string | number> = {}) =>
    key === 'devices.browserOnOs' ? `${String(values.os)} 上的 ${String(values.browser)}` : key === 'devices.unknown' ? '不明裝置' : key;
  it('writes the browser and the system by the page language’s template, either alone when only one is known', () => {
    expect(deviceName({ browser: 'Safari', os: 'iOS' }, text)).toBe('iOS 上的 Safari');
    expect(deviceName({ browser: 'Firefox', os: null }, text)).toBe('Firefox');
    expect(deviceName({ browser: null, os: 'Linux' }, text)).toBe('Linux');
    expect(deviceName({ browser: null, os: null }, text)).toBe('不明裝置');
  });
});
