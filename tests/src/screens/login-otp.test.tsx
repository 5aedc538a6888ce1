// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { passcodeStepStarted, type PendingSignIn } from '../../../src/auth/sign-in-slice';
import { answerWith, callsTo, goToSignIn, PROFILE, renderPortal, resetFakePortal, signedInAnswers, type Answer, type SentCall } from './support/fake-portal';

/**
 * SPEC §2 login-otp and login-otp-preference (guards: stored login data; notification info), the
 * second sign-in step of ADR 0008: the same login payload plus otp, otp_type and trust_device.
 */
const BASE = '/sabana/en_us/account/';
const PENDING: PendingSignIn = {
  siteId: 'sabana',
  locale: 'en_us',
  username: 'valentina.gomez@example.com',
  password: 'Sabana#Colombia1',
  otpType: 'email',
  maskedDestination: 'v***@example.com',
  breachedPassword: false,
};

beforeEach(resetFakePortal);
afterEach(cleanup);

function withAnswers(answers: Record<string, Answer>) {
  return (call: SentCall): Answer | undefined => answers[call.url] ?? (document.cookie.includes('gmap_authenticated=true') ? signedInAnswers(call) : undefined);
}

async function enterCode(code: string, trust: boolean) {
  fireEvent.change(await screen.findByLabelText(/^One-time passcode/), { target: { value: code } });
  if (trust) fireEvent.click(screen.getByRole('checkbox', { name: /Trust this device for 15 minutes/ }));
  fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
}

describe('§2 login-otp guard', () => {
  it.each(['login-otp', 'login-otp-preference'])('%s without stored login data → login-form', async (route) => {
    const { router } = renderPortal(`${BASE}${route}`);
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(router.state.location.pathname).toBe(`${BASE}login-form`);
  });

  it('login-otp-preference when get-preference-details refuses (no pending challenge) → login-form', async () => {
    answerWith(withAnswers({ 'user-mgmt/user/get-preference-details': { status: 401, data: { error: 'UNAUTHENTICATED', message: 'no challenge' } } }));
    const { router } = renderPortal(`${BASE}login-otp-preference`, (store) => store.dispatch(passcodeStepStarted({ ...PENDING, otpType: null })));
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(router.state.location.pathname).toBe(`${BASE}login-form`);
    expect(goToSignIn).not.toHaveBeenCalled();
  });
});

describe('§2 login-otp: the otp form re-sends the login payload with the code', () => {
  it('posts otp, otp_type and trust_device; success with trust stores otp_expiry = now + 15 min (§4, §9) and drops the login data', async () => {
    answerWith(
      withAnswers({ 'user-auth/login': { status: 200, data: { status: 'SIGNED_IN', expires_in: 1800 }, setCookie: 'gmap_authenticated=true; Path=/' } }),
    );
    const { router, store } = renderPortal(`${BASE}login-otp`, (prepared) => prepared.dispatch(passcodeStepStarted(PENDING)));
    const before = Math.floor(Date.now() / 1000);
    await enterCode('123456', true);
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}profile`));
    expect(callsTo('user-auth/login')[0]?.body).toEqual({
      username: 'valentina.gomez@example.com',
      password: 'Sabana#Colombia1',
      grant_type: 'password',
      siteId: 'sabana',
      locale: 'en_us',
      init_login: 'true',
      otp: '123456',
      otp_type: 'email',
      trust_device: 'true',
    });
    const expiry = Number(window.localStorage.getItem('otp_expiry'));
    expect(expiry).toBeGreaterThanOrEqual(before + 900);
    expect(expiry).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 900);
    expect(store.getState().signIn.pending).toBeNull();
    expect(JSON.stringify({ ...window.localStorage })).not.toContain('123456');
  });

  it('without trust: trust_device=false and no otp_expiry', async () => {
    answerWith(
      withAnswers({ 'user-auth/login': { status: 200, data: { status: 'SIGNED_IN', expires_in: 1800 }, setCookie: 'gmap_authenticated=true; Path=/' } }),
    );
    const { router } = renderPortal(`${BASE}login-otp`, (store) =>
      store.dispatch(passcodeStepStarted({ ...PENDING, otpType: 'totp', maskedDestination: null })),
    );
    await enterCode('654321', false);
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}profile`));
    expect(callsTo('user-auth/login')[0]?.body).toMatchObject({ otp: '654321', otp_type: 'totp', trust_device: 'false' });
    expect(window.localStorage.getItem('otp_expiry')).toBeNull();
  });

  it.each([
    [{ error: 'OTP_INVALID', message: 'wrong', attemptsLeft: 3 }, "That passcode isn't correct. You have 3 attempts left."],
    [{ error: 'OTP_INVALID', message: 'wrong', attemptsLeft: 0 }, "That passcode isn't correct and can't be used again. Ask for a new passcode."],
    [{ error: 'OTP_INVALID', message: 'wrong' }, "That passcode isn't correct. Please check it and try again."],
    [{ error: 'OTP_EXPIRED', message: 'expired', attemptsLeft: 4 }, 'That passcode has expired. Ask for a new passcode.'],
  ])('401 %o: the text on the form, the step stays (no §8 trip to sign-in)', async (body, text) => {
    answerWith(withAnswers({ 'user-auth/login': { status: 401, data: body } }));
    const { router, store } = renderPortal(`${BASE}login-otp`, (prepared) => prepared.dispatch(passcodeStepStarted(PENDING)));
    await enterCode('000000', false);
    expect((await screen.findByRole('alert')).textContent).toBe(`⚠${text}`);
    expect(router.state.location.pathname).toBe(`${BASE}login-otp`);
    expect(store.getState().signIn.pending).not.toBeNull();
    expect(goToSignIn).not.toHaveBeenCalled();
  });

  it('a breached password (VBA_TOKEN_REQUIRED): the intro says why, the code goes as vba_token without otp_type, no "trust this device", then compromised-credentials', async () => {
    const answers = withAnswers({
      'user-auth/login': {
        status: 200,
        data: { status: 'SIGNED_IN', expires_in: 1800, passwordCompromised: true },
        setCookie: 'gmap_authenticated=true; Path=/',
      },
    });
    // As the gateway holds the account until the password is replaced (ADR 0009).
    answerWith((call) => (call.url === 'user-mgmt/user/find' ? { status: 403, data: { error: 'PASSWORD_CHANGE_REQUIRED', message: 'x' } } : answers(call)));
    const { router, store } = renderPortal(`${BASE}login-otp`, (prepared) => prepared.dispatch(passcodeStepStarted({ ...PENDING, breachedPassword: true })));
    expect(
      await screen.findByText(
        "Your password appeared in a data breach on another website. To prove it's you, enter the 6-digit passcode we sent to your email v***@example.com. Then you'll choose a new password.",
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: /Trust this device/ })).toBeNull();
    await enterCode('123456', false);
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}compromised-credentials`));
    const body = callsTo('user-auth/login')[0]?.body as Record<string, string>;
    expect(body).toMatchObject({ username: 'valentina.gomez@example.com', password: 'Sabana#Colombia1', vba_token: '123456', trust_device: 'false' });
    expect(body.otp).toBeUndefined();
    expect(body.otp_type).toBeUndefined();
    expect(window.localStorage.getItem('otp_expiry')).toBeNull();
    expect(store.getState().signIn.pending).toBeNull();
  });

  it('a breached-password step: "Send a new passcode" mails it again (send-code purpose login, channel email)', async () => {
    answerWith(withAnswers({ 'user-mgmt/user/send-code': { status: 204 } }));
    renderPortal(`${BASE}login-otp`, (store) => store.dispatch(passcodeStepStarted({ ...PENDING, breachedPassword: true })));
    fireEvent.click(await screen.findByRole('button', { name: 'Send a new passcode' }));
    await screen.findByText('A new passcode is on its way.');
    expect(callsTo('user-mgmt/user/send-code')[0]?.body).toEqual({ channel: 'email', purpose: 'login' });
  });

  it('lost phone: the authenticator step offers a backup code; it is sent as backup_code and the person lands on mfa-setup told how many are left', async () => {
    const login: Answer = {
      status: 200,
      data: { status: 'SIGNED_IN', expires_in: 1800, mfaEnrollmentStatus: 'ENROLLED', backupCodesLeft: 8 },
      setCookie: 'gmap_authenticated=true; Path=/',
    };
    const enrolled = { ...PROFILE, mfaEnrollmentStatus: 'ENROLLED' };
    answerWith((call) =>
      call.url === 'user-auth/login' ? login : document.cookie.includes('gmap_authenticated=true') ? signedInAnswers(call, enrolled) : undefined,
    );
    const { router, store } = renderPortal(`${BASE}login-otp`, (prepared) =>
      prepared.dispatch(passcodeStepStarted({ ...PENDING, otpType: 'totp', maskedDestination: null })),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Lost your phone? Use a backup code' }));
    expect(screen.queryByLabelText(/^One-time passcode/)).toBeNull();
    fireEvent.change(screen.getByLabelText('Backup code'), { target: { value: 'ABCDE-FGH23' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with the backup code' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}mfa-setup`));
    const body = callsTo('user-auth/login')[0]?.body as Record<string, string>;
    expect(body).toMatchObject({ backup_code: 'ABCDE-FGH23', trust_device: 'false' });
    expect(body.otp).toBeUndefined();
    expect(await screen.findByText(/^You signed in with a backup code\. Backup codes left: 8\./)).toBeTruthy();
    expect(store.getState().signIn.pending).toBeNull();
    expect(JSON.stringify({ ...window.localStorage, ...window.sessionStorage })).not.toContain('ABCDE-FGH23');
  });

  it('an e-mailed passcode step offers no backup code', async () => {
    renderPortal(`${BASE}login-otp`, (store) => store.dispatch(passcodeStepStarted(PENDING)));
    await screen.findByLabelText(/^One-time passcode/);
    expect(screen.queryByRole('button', { name: 'Lost your phone? Use a backup code' })).toBeNull();
  });

  it.each([['123 456'], ['123-456'], ['١٢٣٤٥٦']])('a code typed or pasted as %j is sent as its six digits', async (typed) => {
    answerWith(
      withAnswers({ 'user-auth/login': { status: 200, data: { status: 'SIGNED_IN', expires_in: 1800 }, setCookie: 'gmap_authenticated=true; Path=/' } }),
    );
    const { router } = renderPortal(`${BASE}login-otp`, (prepared) => prepared.dispatch(passcodeStepStarted(PENDING)));
    await enterCode(typed, false);
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}profile`));
    expect((callsTo('user-auth/login')[0]?.body as { otp: string }).otp).toBe('123456');
  });

  it('an invalid code never reaches the gateway (the form rule: 6 digits)', async () => {
    renderPortal(`${BASE}login-otp`, (store) => store.dispatch(passcodeStepStarted(PENDING)));
    await enterCode('12ab', false);
    await screen.findByLabelText(/^One-time passcode/);
    // It says what a code is, not "Please check this field".
    expect(await screen.findByText('Enter the 6 digits of your code.')).toBeTruthy();
    expect(callsTo('user-auth/login')).toHaveLength(0);
  });

  // ADR 0008: after five wrong codes even the right one is refused; it is spent, not wrong, and Verify can no longer help.
  it('a spent code (OTP_SPENT) says so, rests Verify, and counts the new code down to when it will work; a new code wakes Verify', async () => {
    answerWith(
      withAnswers({
        'user-auth/login': { status: 401, data: { error: 'OTP_SPENT', message: 'spent', attemptsLeft: 0 }, headers: { 'retry-after': '120' } },
        'user-mgmt/user/send-code': { status: 204 },
      }),
    );
    renderPortal(`${BASE}login-otp`, (store) => store.dispatch(passcodeStepStarted(PENDING)));
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      await enterCode('123456', false);
      expect((await screen.findByRole('alert')).textContent).toBe(
        "⚠That passcode can't be used any more: it was already used, or tried too many times. Ask for a new passcode.",
      );
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Verify' }).disabled).toBe(true);
      const resend = screen.getByRole<HTMLButtonElement>('button', { name: 'Send a new passcode (120 s)' });
      expect(resend.disabled).toBe(true);
      act(() => vi.advanceTimersByTime(120_000));
      fireEvent.click(screen.getByRole('button', { name: 'Send a new passcode' }));
      await screen.findByText('A new passcode is on its way.');
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Verify' }).disabled).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the last wrong attempt (OTP_INVALID, no attempt left) rests Verify too', async () => {
    answerWith(withAnswers({ 'user-auth/login': { status: 401, data: { error: 'OTP_INVALID', message: 'wrong', attemptsLeft: 0 } } }));
    renderPortal(`${BASE}login-otp`, (store) => store.dispatch(passcodeStepStarted(PENDING)));
    await enterCode('000000', false);
    await screen.findByRole('alert');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Verify' }).disabled).toBe(true);
  });

  it('"Send a new passcode" calls send-code { channel, purpose: "login" } and says so; RATE_LIMITED counts the wait down on the button', async () => {
    answerWith(withAnswers({ 'user-mgmt/user/send-code': { status: 204 } }));
    renderPortal(`${BASE}login-otp`, (store) => store.dispatch(passcodeStepStarted({ ...PENDING, otpType: 'sms', maskedDestination: '*** *** 4567' })));
    const resendButton = await screen.findByRole('button', { name: 'Send a new passcode' });
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      fireEvent.click(resendButton);
      expect((await screen.findByText('A new passcode is on its way.')).closest('[role="status"]')).not.toBeNull();
      expect(callsTo('user-mgmt/user/send-code')[0]?.body).toEqual({ channel: 'sms', purpose: 'login' });
      // A sent code rests the button for 30 s, visibly: a double tap does not spend a second send.
      const resting = screen.getByRole<HTMLButtonElement>('button', { name: 'Send a new passcode (30 s)' });
      expect(resting.disabled).toBe(true);
      act(() => vi.advanceTimersByTime(30_000));
      expect(resting.textContent).toBe('Send a new passcode');

      answerWith(
        withAnswers({ 'user-mgmt/user/send-code': { status: 429, data: { error: 'RATE_LIMITED', message: 'slow down' }, headers: { 'retry-after': '300' } } }),
      );
      fireEvent.click(screen.getByRole('button', { name: 'Send a new passcode' }));
      expect((await screen.findByRole('alert')).textContent).toBe('⚠Too many requests. Please wait, then try again.');
      const resend = screen.getByRole<HTMLButtonElement>('button', { name: 'Send a new passcode (300 s)' });
      expect(resend.disabled).toBe(true);
      // Announced politely once, with the gateway's figure; the button counts down without announcing each second.
      expect(screen.getByText('You can ask for a new passcode in 300 seconds.').getAttribute('role')).toBe('status');
      act(() => vi.advanceTimersByTime(100_000));
      expect(resend.textContent).toBe('Send a new passcode (200 s)');
      act(() => vi.advanceTimersByTime(200_000));
      expect(resend.textContent).toBe('Send a new passcode');
      expect(resend.disabled).toBe(false);
      expect(screen.getByText('You can ask for a new passcode now.').getAttribute('role')).toBe('status');
    } finally {
      vi.useRealTimers();
    }
  });

  it('a passcode check refused with RATE_LIMITED holds the submit back for the Retry-After seconds, counting down', async () => {
    answerWith(withAnswers({ 'user-auth/login': { status: 429, data: { error: 'RATE_LIMITED', message: 'slow down' }, headers: { 'retry-after': '30' } } }));
    renderPortal(`${BASE}login-otp`, (store) => store.dispatch(passcodeStepStarted(PENDING)));
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      await enterCode('123456', false);
      await screen.findByText('You can try again in 30 s.');
      act(() => vi.advanceTimersByTime(10_000));
      expect(screen.getByText('You can try again in 20 s.')).toBeTruthy();
      act(() => vi.advanceTimersByTime(20_000));
      expect(screen.queryByText(/You can try again in/)).toBeNull();
      expect(screen.getByText('You can try again now.')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('§2 login-otp-preference: choose e-mail or SMS, then login-otp', () => {
  it('shows both masked destinations as radios; SMS → send-code { sms, login } → login-otp naming the phone', async () => {
    answerWith(
      withAnswers({
        'user-mgmt/user/get-preference-details': { status: 200, data: { email: 'v***@example.com', phone: '*** *** 4567' } },
        'user-mgmt/user/send-code': { status: 204 },
      }),
    );
    const { router, store } = renderPortal(`${BASE}login-otp-preference`, (prepared) =>
      prepared.dispatch(passcodeStepStarted({ ...PENDING, otpType: null, maskedDestination: null })),
    );
    const group = await screen.findByRole('group', { name: 'Where should we send your passcode?' });
    expect(group).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Email to v***@example.com' }).checked).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: 'Text message to *** *** 4567' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send passcode' }));
    await screen.findByText('We sent a 6-digit passcode by text message to *** *** 4567.');
    expect(router.state.location.pathname).toBe(`${BASE}login-otp`);
    expect(callsTo('user-mgmt/user/send-code')[0]?.body).toEqual({ channel: 'sms', purpose: 'login' });
    expect(store.getState().signIn.pending).toMatchObject({ otpType: 'sms', maskedDestination: '*** *** 4567' });
  });

  it('no phone: only e-mail is offered; a refused send-code stays with its text', async () => {
    answerWith(
      withAnswers({
        'user-mgmt/user/get-preference-details': { status: 200, data: { email: 'v***@example.com', phone: null } },
        'user-mgmt/user/send-code': { status: 429, data: { error: 'RATE_LIMITED', message: 'slow' }, headers: { 'retry-after': '900' } },
      }),
    );
    const { router } = renderPortal(`${BASE}login-otp-preference`, (store) =>
      store.dispatch(passcodeStepStarted({ ...PENDING, otpType: null, maskedDestination: null })),
    );
    await screen.findByRole('radio', { name: 'Email to v***@example.com' });
    expect(screen.getAllByRole('radio')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Send passcode' }));
    expect((await screen.findByRole('alert')).textContent).toBe('⚠Too many requests. Please wait 15 minutes and try again.');
    expect(router.state.location.pathname).toBe(`${BASE}login-otp-preference`);
  });
});
