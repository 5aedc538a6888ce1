// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  answerWith,
  callsTo,
  goToSignIn,
  renderPortal,
  resetFakePortal,
  sent,
  signedInAnswers,
  signInTheBrowser,
  type Answer,
  type SentCall,
} from './support/fake-portal';
import { notificationShown } from '../../../src/app/alerts-slice';

/**
 * SPEC §2 login / login-form with ADR 0008's answers of `user-auth/login`: the form comes from the
 * site configuration, the payload is §3's multipart one with init_login=true, and each code leads
 * to its step or its text (§8 "Oops that wasn't the right combination.").
 */
const LOGIN = '/eurobank/en_us/account/login-form';

beforeEach(resetFakePortal);
afterEach(cleanup);

function loginAnswers(answer: Answer) {
  return (call: SentCall): Answer | undefined => {
    if (call.url === 'user-auth/login') return answer;
    return document.cookie.includes('gmap_authenticated=true') ? signedInAnswers(call) : undefined;
  };
}

async function signIn(username = 'lukas.schneider@example.com', password = 'Eurobank&Sicher9') {
  fireEvent.change(await screen.findByLabelText(/^Email/), { target: { value: username } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('§2 login-form: the site login form posts §3 multipart to user-auth/login', () => {
  it('posts username, password, grant_type=password, siteId, locale and init_login=true; 200 → the check runs again → /profile', async () => {
    answerWith(
      loginAnswers({
        status: 200,
        data: { status: 'SIGNED_IN', expires_in: 1800, user_type: 'CARDHOLDER', mfaEnrollmentStatus: 'NOT_ENROLLED' },
        setCookie: 'gmap_authenticated=true; Path=/',
      }),
    );
    const { router } = renderPortal(LOGIN);
    await signIn();
    await waitFor(() => expect(router.state.location.pathname).toBe('/eurobank/en_us/account/profile'));
    const [login] = callsTo('user-auth/login');
    expect(login?.method).toBe('POST');
    expect(login?.body).toEqual({
      username: 'lukas.schneider@example.com',
      password: 'Eurobank&Sicher9',
      grant_type: 'password',
      siteId: 'eurobank',
      locale: 'en_us',
      init_login: 'true',
    });
    expect(login?.headers['x-site-id']).toBe('eurobank');
    expect(callsTo('user-attribute/user/background/eurobank')).toHaveLength(1);
    // Nothing of the password anywhere but in the request (ADR 0008: login data in memory only, never storage).
    expect(JSON.stringify({ ...window.localStorage })).not.toContain('Sicher9');
    expect(JSON.stringify({ ...window.sessionStorage })).not.toContain('Sicher9');
    expect(document.cookie).not.toContain('Sicher9');
  });

  it('§2 a stored valid returnurl is where a successful sign-in goes, once', async () => {
    answerWith(loginAnswers({ status: 200, data: { status: 'SIGNED_IN', expires_in: 1800 }, setCookie: 'gmap_authenticated=true; Path=/' }));
    const { router } = renderPortal(`${LOGIN}?returnurl=${encodeURIComponent('/eurobank/en_us/account/edit-profile')}`);
    await signIn();
    await waitFor(() => expect(router.state.location.pathname).toBe('/eurobank/en_us/account/edit-profile'));
    expect(window.sessionStorage.getItem('returnurl')).toBeNull();
  });

  it('§2 an invalid returnurl is never stored: the sign-in ends on /profile', async () => {
    answerWith(loginAnswers({ status: 200, data: { status: 'SIGNED_IN', expires_in: 1800 }, setCookie: 'gmap_authenticated=true; Path=/' }));
    const { router } = renderPortal(`${LOGIN}?returnurl=${encodeURIComponent('https://evil.example/en_us/account/profile')}`);
    await signIn();
    await waitFor(() => expect(router.state.location.pathname).toBe('/eurobank/en_us/account/profile'));
  });

  it('§8 BAD_CREDENTIALS: "Oops that wasn\'t the right combination." as a form-level alert, no reload, no trip to sign-in', async () => {
    answerWith(loginAnswers({ status: 401, data: { error: 'BAD_CREDENTIALS', message: 'Wrong e-mail or password.' } }));
    const { router } = renderPortal(LOGIN);
    await signIn('lukas.schneider@example.com', 'wrong');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe("⚠Oops that wasn't the right combination.");
    expect(document.activeElement).toBe(alert);
    expect(router.state.location.pathname).toBe(LOGIN);
    expect(goToSignIn).not.toHaveBeenCalled();
    // The form keeps what was typed, so the person corrects it.
    expect(screen.getByLabelText<HTMLInputElement>(/^Email/).value).toBe('lukas.schneider@example.com');
  });

  it('a success notice of the step before (password reset) goes when the person signs in again: it never stands above the refusal', async () => {
    answerWith(loginAnswers({ status: 401, data: { error: 'BAD_CREDENTIALS', message: 'Wrong e-mail or password.' } }));
    renderPortal(LOGIN, (store) =>
      store.dispatch(notificationShown({ id: 'password-reset', kind: 'success', message: 'Your password was reset.', lifetime: 'next-page' })),
    );
    expect(await screen.findByText('Your password was reset.')).toBeTruthy();
    await signIn('lukas.schneider@example.com', 'wrong');
    expect((await screen.findByRole('alert')).textContent).toBe("⚠Oops that wasn't the right combination.");
    expect(screen.queryByText('Your password was reset.')).toBeNull();
  });

  it.each([
    ['USER_LOCKED', 423, '900', 'Your account is locked after too many attempts. Try again in 15 minutes, or reset your password.'],
    ['USER_LOCKED', 423, undefined, 'Your account is locked. Please reset your password to unlock it.'],
    ['DEVICE_LOCKED', 423, '600', 'Too many attempts from this device. Try again in 10 minutes.'],
    // The wait itself is counted down beside the button (below), so the alert names no other figure.
    ['RATE_LIMITED', 429, '61', 'Too many requests. Please wait, then try again.'],
    ['VALIDATION_FAILED', 400, undefined, 'Please check what you entered and try again.'],
  ])('ADR 0008 %s (%i, Retry-After %s): the content text', async (code, status, retryAfter, text) => {
    answerWith(loginAnswers({ status, data: { error: code, message: code }, ...(retryAfter ? { headers: { 'retry-after': retryAfter } } : {}) }));
    renderPortal(LOGIN);
    await signIn();
    // A lock says to reset the password, and links there (ADR 0008: the reset unlocks the account).
    const wayOut = code === 'USER_LOCKED' ? 'Reset your password to unlock your account' : '';
    expect((await screen.findByRole('alert')).textContent).toBe(`⚠${text}${wayOut}`);
    if (wayOut !== '')
      expect(within(screen.getByRole('alert')).getByRole('link', { name: wayOut }).getAttribute('href')).toBe('/eurobank/en_us/account/recovery');
    expect(goToSignIn).not.toHaveBeenCalled();
  });

  it('ADR 0008 RATE_LIMITED: the wait counts down live from Retry-After with the sign-in held back, then it comes back and says so', async () => {
    answerWith(loginAnswers({ status: 429, data: { error: 'RATE_LIMITED', message: 'slow down' }, headers: { 'retry-after': '61' } }));
    renderPortal(LOGIN);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      await signIn();
      await screen.findByRole('alert');
      const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Sign in' });
      expect(screen.getByText('You can try again in 61 s.')).toBeTruthy();
      expect(button.disabled).toBe(true);
      act(() => vi.advanceTimersByTime(3_000));
      expect(screen.getByText('You can try again in 58 s.')).toBeTruthy();
      expect(button.disabled).toBe(true);
      act(() => vi.advanceTimersByTime(58_000));
      expect(screen.queryByText(/You can try again in/)).toBeNull();
      expect(button.disabled).toBe(false);
      expect(screen.getByText('You can try again now.').getAttribute('role')).toBe('status');
      expect(screen.queryByRole('alert')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('README "Database outage": 503 SERVICE_UNAVAILABLE (database or Redis away) says so and counts its Retry-After down with the sign-in held back', async () => {
    answerWith(loginAnswers({ status: 503, data: { error: 'SERVICE_UNAVAILABLE', message: 'unavailable' }, headers: { 'retry-after': '30' } }));
    renderPortal(LOGIN);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      await signIn();
      expect((await screen.findByRole('alert')).textContent).toBe('⚠This service is unavailable for a moment. Please wait, then try again.');
      expect(screen.getByText('You can try again in 30 s.')).toBeTruthy();
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Sign in' }).disabled).toBe(true);
      act(() => vi.advanceTimersByTime(30_000));
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Sign in' }).disabled).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a 500 shows §8 global alert only, not a second form alert', async () => {
    answerWith(loginAnswers({ status: 500, data: { error: 'INTERNAL', message: 'x' }, headers: { 'x-cid': 'ref-9' } }));
    renderPortal(LOGIN);
    await signIn();
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(1));
    expect(screen.getByRole('alert').textContent).toContain('Reference: ref-9');
  });
});

describe('ADR 0008 passcode codes lead to the next step with the login data in memory only', () => {
  it('OTP_REQUIRED_EMAIL → login-otp with the masked address; the password is in the Redux slice, not in storage', async () => {
    answerWith(loginAnswers({ status: 401, data: { error: 'OTP_REQUIRED_EMAIL', message: 'code sent', maskedDestination: 'l***@example.com' } }));
    const { router, store } = renderPortal(LOGIN);
    await signIn();
    await screen.findByRole('heading', { level: 1, name: 'Enter your passcode' });
    expect(router.state.location.pathname).toBe('/eurobank/en_us/account/login-otp');
    // The address is split at "@" and dots for wrapping (widgets/text/EmailAddress.tsx): the sentence is the paragraph's whole text.
    const sentence = (_: string, element: Element | null) =>
      element?.tagName === 'P' && element.textContent === 'We sent a 6-digit passcode to your email l***@example.com.';
    expect(screen.getByText(sentence)).toBeTruthy();
    expect(store.getState().signIn.pending).toEqual({
      siteId: 'eurobank',
      locale: 'en_us',
      username: 'lukas.schneider@example.com',
      password: 'Eurobank&Sicher9',
      otpType: 'email',
      maskedDestination: 'l***@example.com',
      breachedPassword: false,
    });
    // Only where the flow stands is kept for a reload (ADR 0019 "Flow steps"): the user name and the channel, never the password.
    expect(window.localStorage.length).toBe(0);
    expect(Object.keys(window.sessionStorage)).toEqual(['flow_steps']);
    expect(JSON.parse(window.sessionStorage.getItem('flow_steps') ?? '')).toEqual({
      'sign-in': { siteId: 'eurobank', step: { username: 'lukas.schneider@example.com', otpType: 'email' } },
    });
    expect(goToSignIn).not.toHaveBeenCalled();
    // §2 focus management: the new step's heading takes focus (an effect after the heading renders).
    await waitFor(() => expect(document.activeElement?.tagName).toBe('H1'));
  });

  it('OTP_REQUIRED_PHONE → login-otp, code by SMS; MFA_OTP_REQUIRED → the authenticator code, no resend', async () => {
    answerWith(loginAnswers({ status: 401, data: { error: 'OTP_REQUIRED_PHONE', message: 'code sent', maskedDestination: '*** *** 5678' } }));
    renderPortal(LOGIN);
    await signIn();
    expect(await screen.findByText('We sent a 6-digit passcode by text message to *** *** 5678.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send a new passcode' })).toBeTruthy();
    cleanup();
    resetFakePortal();

    answerWith(loginAnswers({ status: 401, data: { error: 'MFA_OTP_REQUIRED', message: 'totp' } }));
    const { store } = renderPortal(LOGIN);
    await signIn();
    expect(await screen.findByText('Enter the 6-digit code from your authenticator app.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send a new passcode' })).toBeNull();
    expect(store.getState().signIn.pending?.otpType).toBe('totp');
  });

  it('OTP_REQUIRED → login-otp-preference (after get-preference-details for the pending user)', async () => {
    answerWith((call) =>
      call.url === 'user-auth/login'
        ? { status: 401, data: { error: 'OTP_REQUIRED', message: 'choose' } }
        : call.url === 'user-mgmt/user/get-preference-details'
          ? { status: 200, data: { email: 'l***@example.com', phone: '*** *** 5678' } }
          : undefined,
    );
    const { router } = renderPortal(LOGIN);
    await signIn();
    await screen.findByRole('heading', { level: 1, name: 'Choose where to get your passcode' });
    expect(router.state.location.pathname).toBe('/eurobank/en_us/account/login-otp-preference');
    expect(callsTo('user-mgmt/user/get-preference-details')[0]?.body).toEqual({ primaryUserIdentifier: 'lukas.schneider@example.com', siteId: 'eurobank' });
  });

  it('coming back to login drops the login data of the abandoned attempt', async () => {
    answerWith(loginAnswers({ status: 401, data: { error: 'OTP_REQUIRED_EMAIL', message: 'sent', maskedDestination: 'l***@example.com' } }));
    const { router, store } = renderPortal(LOGIN);
    await signIn();
    await screen.findByRole('heading', { level: 1, name: 'Enter your passcode' });
    await act(() => router.navigate(LOGIN));
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(store.getState().signIn.pending).toBeNull();
    expect(sent.filter((call) => call.url === 'user-auth/login')).toHaveLength(1);
  });
});

// A password reset on another device ended this session: the sign-in page says why, once, in the site's language.
describe('§8 a session a new password ended elsewhere', () => {
  it('the 401 naming sessionEnded sends the holder to sign in, where the reason is said once', async () => {
    signInTheBrowser();
    answerWith((call: SentCall) =>
      call.url === 'user-mgmt/user/find'
        ? { status: 401, data: { error: 'UNAUTHENTICATED', message: 'x', sessionEnded: 'password_changed' } }
        : signedInAnswers(call),
    );
    renderPortal('/eurobank/en_us/account/profile');
    await waitFor(() => expect(goToSignIn).toHaveBeenCalled());
    expect(window.sessionStorage.getItem('session_ended')).toBe('password_changed');
    cleanup();
    document.cookie = 'gmap_authenticated=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/';
    answerWith(() => undefined);
    renderPortal('/eurobank/en_us/account/login-form');
    const notice = 'You were signed out because your password was changed on another device. Sign in with your new password.';
    expect(await screen.findAllByText(notice)).toHaveLength(1);
    cleanup();
    renderPortal('/eurobank/en_us/account/login-form');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByText(notice)).toBeNull();
  });

  it('a 401 without a reason says nothing of the kind', async () => {
    signInTheBrowser();
    answerWith((call: SentCall) =>
      call.url === 'user-mgmt/user/find' ? { status: 401, data: { error: 'UNAUTHENTICATED', message: 'x' } } : signedInAnswers(call),
    );
    renderPortal('/eurobank/en_us/account/profile');
    await waitFor(() => expect(goToSignIn).toHaveBeenCalled());
    expect(window.sessionStorage.getItem('session_ended')).toBeNull();
  });
});
