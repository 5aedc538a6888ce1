// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerWith, callsTo, renderPortal, resetFakePortal, signedInAnswers, signInTheBrowser, type Answer, type SentCall } from './support/fake-portal';

/**
 * SPEC §2 password, compromised-credentials and delete-profile against ADR 0009: change-password
 * with each refusal (§8 "Current password is incorrect." next to its field), the breached-password
 * detour after sign-in, and deleting the account (signed out, the mobile bridge told).
 */
beforeEach(resetFakePortal);
afterEach(() => {
  cleanup();
  delete (globalThis as { ReactNativeWebView?: unknown }).ReactNativeWebView;
});

function signedIn(table: Readonly<Record<string, Answer>>) {
  return (call: SentCall): Answer | undefined => table[call.url] ?? (document.cookie.includes('gmap_authenticated=true') ? signedInAnswers(call) : undefined);
}

async function changePassword(current: string, next: string) {
  fireEvent.change(await screen.findByLabelText(/^Current password/), { target: { value: current } });
  fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: next } });
  fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: next } });
  fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
}

describe('§2 password: change-password (signed in)', () => {
  it('posts { currentPassword, password, confirm_password }; success → /profile?editPw=true with the password-updated notice', async () => {
    signInTheBrowser();
    answerWith(signedIn({ 'user-mgmt/user/change-password': { status: 200, data: {} } }));
    const { router } = renderPortal('/firstbank/en_us/account/password');
    await changePassword('Old-Pass-123', 'Brand-New-Pass-7');
    await waitFor(() => expect(router.state.location.pathname).toBe('/firstbank/en_us/account/profile'));
    expect(await screen.findByText('Your password has been updated.')).toBeTruthy();
    // SPEC §2 editPw is a one-time notice: shown, then taken out of the address, so a reload or a later link does not repeat it.
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByText('Your password has been updated.')).toBeTruthy();
    expect(callsTo('user-mgmt/user/change-password')[0]?.body).toEqual({
      currentPassword: 'Old-Pass-123',
      password: 'Brand-New-Pass-7',
      confirm_password: 'Brand-New-Pass-7',
    });
  });

  it('CURRENT_PASSWORD_INCORRECT: "Current password is incorrect." next to the current-password field, no trip to sign-in', async () => {
    signInTheBrowser();
    answerWith(signedIn({ 'user-mgmt/user/change-password': { status: 400, data: { error: 'CURRENT_PASSWORD_INCORRECT', message: 'x' } } }));
    const { router } = renderPortal('/firstbank/en_us/account/password');
    await changePassword('Wrong-Pass-123', 'Brand-New-Pass-7');
    const current = screen.getByLabelText<HTMLInputElement>(/^Current password/);
    await waitFor(() => expect(current.getAttribute('aria-invalid')).toBe('true'));
    const describedBy = current.getAttribute('aria-describedby') ?? '';
    const errorText = describedBy
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ');
    expect(errorText).toContain('Current password is incorrect.');
    expect(router.state.location.pathname).toBe('/firstbank/en_us/account/password');
    // Nothing typed is lost.
    expect(screen.getByLabelText<HTMLInputElement>(/^New password/).value).toBe('Brand-New-Pass-7');
  });

  it.each([
    ['PASSWORD_REUSED', "Please choose a password you haven't used recently: it must differ from your last 4 passwords."],
    ['PASSWORD_COMPROMISED', "That password has appeared in a data breach and can't be used. Please choose another one."],
    ['VALIDATION_FAILED', 'Please check the highlighted fields.'],
  ])('%s: its clear text', async (code, text) => {
    signInTheBrowser();
    answerWith(signedIn({ 'user-mgmt/user/change-password': { status: 400, data: { error: code, message: 'x', fields: {} } } }));
    renderPortal('/firstbank/en_us/account/password');
    await changePassword('Old-Pass-123', 'Brand-New-Pass-7');
    expect((await screen.findByRole('alert')).textContent).toBe(`⚠${text}`);
  });

  it('a guest is sent to sign-in (SPEC §2 signed in)', async () => {
    const { router } = renderPortal('/firstbank/en_us/account/password');
    await waitFor(() => expect(router.state.location.pathname).toBe('/firstbank/en_us/account/login-form'));
  });
});

describe('§2 compromised-credentials: a sign-in with a breached password (ADR 0009)', () => {
  /** As the gateway holds the account (ADR 0009): the profile answers 403 PASSWORD_CHANGE_REQUIRED until the replacement succeeds. */
  function heldUntilReplaced(table: Readonly<Record<string, Answer>>) {
    let replaced = false;
    const answers = signedIn(table);
    return (call: SentCall): Answer | undefined => {
      if (call.url === 'user-mgmt/user/vba/compromised-password') replaced = true;
      if (call.url === 'user-mgmt/user/find' && !replaced) return { status: 403, data: { error: 'PASSWORD_CHANGE_REQUIRED', message: 'x' } };
      return answers(call);
    };
  }

  it('VBA_TOKEN_REQUIRED → the mailed code as vba_token → passwordCompromised → compromised-credentials → user-mgmt/user/vba/compromised-password { password, confirm_password } → /profile with the notice', async () => {
    const held = heldUntilReplaced({
      'user-auth/login': {
        status: 200,
        data: { status: 'SIGNED_IN', expires_in: 1800, passwordCompromised: true },
        setCookie: 'gmap_authenticated=true; Path=/',
      },
      'user-mgmt/user/vba/compromised-password': { status: 200, data: {} },
    });
    // ADR 0009 "Breached passwords": the password alone is answered with the mailbox proof.
    answerWith((call) =>
      call.url === 'user-auth/login' && (call.body as Record<string, string>).vba_token === undefined
        ? { status: 401, data: { error: 'VBA_TOKEN_REQUIRED', message: 'x', maskedDestination: 'l***@example.com' } }
        : held(call),
    );
    const { router } = renderPortal('/eurobank/en_us/account/login-form');
    fireEvent.change(await screen.findByLabelText(/^Email/), { target: { value: 'lukas.schneider@example.com' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'Password1!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/eurobank/en_us/account/login-otp'));
    expect(await screen.findByText(/appeared in a data breach on another website.*l\*\*\*@example\.com/)).toBeTruthy();
    fireEvent.change(await screen.findByLabelText(/^One-time passcode/), { target: { value: '246810' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/eurobank/en_us/account/compromised-credentials'));
    expect(callsTo('user-auth/login')[1]?.body).toMatchObject({ username: 'lukas.schneider@example.com', password: 'Password1!', vba_token: '246810' });
    expect(await screen.findByText(/appeared in a known data breach/)).toBeTruthy();
    expect(screen.queryByLabelText(/^Passcode/)).toBeNull();
    fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'Brand-New-Pass-7' } });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: 'Brand-New-Pass-7' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/eurobank/en_us/account/profile'));
    expect(callsTo('user-mgmt/user/vba/compromised-password')[0]?.body).toEqual({ password: 'Brand-New-Pass-7', confirm_password: 'Brand-New-Pass-7' });
    expect(await screen.findByText('Your password has been updated.')).toBeTruthy();
  });

  it('the profile opened by its URL while held lands on compromised-credentials; without the hold, compromised-credentials goes to the profile', async () => {
    signInTheBrowser();
    answerWith(heldUntilReplaced({}));
    const held = renderPortal('/eurobank/en_us/account/profile');
    await waitFor(() => expect(held.router.state.location.pathname).toBe('/eurobank/en_us/account/compromised-credentials'));
    expect(await screen.findByText(/appeared in a known data breach/)).toBeTruthy();
    cleanup();
    answerWith(signedIn({}));
    const free = renderPortal('/eurobank/en_us/account/compromised-credentials');
    await waitFor(() => expect(free.router.state.location.pathname).toBe('/eurobank/en_us/account/profile'));
  });

  it('PASSWORD_COMPROMISED again: the text, the person stays', async () => {
    signInTheBrowser();
    answerWith(heldUntilReplaced({ 'user-mgmt/user/vba/compromised-password': { status: 400, data: { error: 'PASSWORD_COMPROMISED', message: 'x' } } }));
    const { router } = renderPortal('/eurobank/en_us/account/compromised-credentials');
    fireEvent.change(await screen.findByLabelText(/^New password/), { target: { value: 'Password123!' } });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: 'Password123!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    expect((await screen.findByRole('alert')).textContent).toBe("⚠That password has appeared in a data breach and can't be used. Please choose another one.");
    expect(router.state.location.pathname).toBe('/eurobank/en_us/account/compromised-credentials');
  });
});

/** ADR 0009 "Deletion: proof of presence": the current password, the ticked "I understand", then the button. */
async function proveAndConfirm(password: string, tick = true) {
  fireEvent.change(await screen.findByLabelText(/^Current password/), { target: { value: password } });
  if (tick) fireEvent.click(screen.getByLabelText(/I understand that my account/));
  fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
}

describe('§2 delete-profile', () => {
  it('asks the ticked confirmation before anything is sent', async () => {
    signInTheBrowser();
    answerWith(signedIn({}));
    renderPortal('/firstbank/en_us/account/delete-profile');
    await proveAndConfirm('Old-Pass-123', false);
    const box = screen.getByLabelText(/I understand that my account/);
    await waitFor(() => expect(box.getAttribute('aria-invalid')).toBe('true'));
    expect(callsTo('user-mgmt/user/remove-account')).toHaveLength(0);
  });

  it('PASSWORD_INCORRECT: "Current password is incorrect." beside the field and the last attempts counted; still signed in', async () => {
    signInTheBrowser();
    answerWith(
      signedIn({
        'user-mgmt/user/remove-account': {
          status: 403,
          data: { error: 'PASSWORD_INCORRECT', message: 'x', fields: { password: 'incorrect' }, attemptsLeft: 1 },
        },
      }),
    );
    const { router } = renderPortal('/firstbank/en_us/account/delete-profile');
    await proveAndConfirm('Wrong-Pass-123');
    expect((await screen.findByRole('alert')).textContent).toBe("⚠That wasn't the right combination. You have 1 attempt left before your account is locked.");
    const current = screen.getByLabelText(/^Current password/);
    await waitFor(() => expect(current.getAttribute('aria-invalid')).toBe('true'));
    const errorText = (current.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ');
    expect(errorText).toContain('Current password is incorrect.');
    expect(router.state.location.pathname).toBe('/firstbank/en_us/account/delete-profile');
    expect(document.cookie).toContain('gmap_authenticated=true');
  });

  it('says what is removed; confirm → remove-account → signed out (revoke, marker cookie gone) → login-form with a notice; the bridge hears deleteProfile', async () => {
    const postMessage = vi.fn();
    (globalThis as { ReactNativeWebView?: unknown }).ReactNativeWebView = { postMessage };
    signInTheBrowser();
    answerWith(signedIn({ 'user-mgmt/user/remove-account': { status: 200, data: {} }, 'user-auth/tokens/revoke': { status: 200, data: {} } }));
    window.sessionStorage.setItem('is_mobile', 'true'); // §1: a session marked by isMobile (mobile-bridge.ts)
    const { router, store } = renderPortal('/firstbank/en_us/account/delete-profile');
    expect(await screen.findByText('the cards you enrolled')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Cancel' }).getAttribute('href')).toBe('/firstbank/en_us/account/profile');
    await proveAndConfirm('Old-Pass-123');
    await waitFor(() => expect(router.state.location.pathname).toBe('/firstbank/en_us/account/login-form'));
    expect(callsTo('user-mgmt/user/remove-account').map((call) => call.body)).toEqual([{ password: 'Old-Pass-123' }]);
    expect(callsTo('user-auth/tokens/revoke')).toHaveLength(1);
    expect(document.cookie).not.toContain('gmap_authenticated=true');
    expect(await screen.findByText('Your account has been deleted.')).toBeTruthy();
    await waitFor(() => expect(store.getState().auth).toMatchObject({ name: 'LOGGEDOUT' }));
    expect(postMessage).toHaveBeenCalledWith(JSON.stringify({ type: 'feature', feature: 'deleteProfile' }));
    expect(postMessage).not.toHaveBeenCalledWith(JSON.stringify({ type: 'feature', feature: 'logout' }));
  });

  it('DELETE_NOT_ALLOWED: the text, still signed in', async () => {
    signInTheBrowser();
    answerWith(signedIn({ 'user-mgmt/user/remove-account': { status: 403, data: { error: 'DELETE_NOT_ALLOWED', message: 'x' } } }));
    const { router } = renderPortal('/firstbank/en_us/account/delete-profile');
    await proveAndConfirm('Old-Pass-123');
    expect((await screen.findByRole('alert')).textContent).toBe("⚠Your account can't be deleted on this site.");
    expect(router.state.location.pathname).toBe('/firstbank/en_us/account/delete-profile');
    expect(document.cookie).toContain('gmap_authenticated=true');
  });
});
