// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerWith, callsTo, renderPortal, resetFakePortal, type Answer, type SentCall } from './support/fake-portal';

/**
 * SPEC §2 activate, resend-activation and both recovery variants against ADR 0009: activate-token's
 * three answers, one "check your e-mail" for every address, send-passcode, find-code and
 * change-password-from-passcode with each refusal; the e-mail and code kept in memory only.
 */
beforeEach(resetFakePortal);
afterEach(cleanup);

const CHECK_EMAIL: Answer = { status: 202, data: { status: 'CHECK_EMAIL' } };

function answersFor(table: Readonly<Record<string, Answer>>) {
  return (call: SentCall): Answer | undefined => table[call.url];
}

async function checkEmailNotice(): Promise<HTMLElement> {
  const heading = await screen.findByRole('heading', { level: 1, name: 'Check your e-mail' });
  return heading.parentElement?.querySelector<HTMLElement>('[role="status"]') ?? heading;
}

describe('§2 activate: the token of the link and the password chosen at registration, posted to activate-token (ADR 0009 "Activation")', () => {
  async function activateWith(password: string) {
    fireEvent.change(await screen.findByLabelText(/^Password/), { target: { value: password } });
    fireEvent.click(screen.getByRole('button', { name: 'Activate account' }));
  }

  it('asks for the password first, posting nothing; ACTIVATED: success and a sign-in link; the token is kept out of the links', async () => {
    answerWith(answersFor({ 'user-mgmt/user/activate-token': { status: 200, data: { status: 'ACTIVATED' } } }));
    renderPortal('/firstbank/en_us/account/activate?token=abc123&siteid=firstbank');
    expect(await screen.findByText('To activate your account, enter the password you chose when you registered.')).toBeTruthy();
    expect(callsTo('user-mgmt/user/activate-token')).toHaveLength(0);
    // Whoever does not know it (they never registered, or forgot it) is pointed to recovery.
    expect(screen.getByRole('link', { name: "Don't know this password? Choose your own" }).getAttribute('href')).toBe(
      '/firstbank/en_us/account/recovery?siteid=firstbank',
    );
    await activateWith('Rewards#2025x');
    expect((await screen.findByText('Your account is active. You can sign in now.')).closest('[role="status"]')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/firstbank/en_us/account/login-form?siteid=firstbank');
    expect(callsTo('user-mgmt/user/activate-token').map((call) => call.body)).toEqual([{ token: 'abc123', password: 'Rewards#2025x' }]);
  });

  it.each([
    ['TOKEN_EXPIRED', 'This activation link has expired.'],
    ['TOKEN_INVALID', "This activation link isn't valid or has already been used."],
  ])('%s: the text and a link to resend-activation', async (code, text) => {
    answerWith(answersFor({ 'user-mgmt/user/activate-token': { status: 400, data: { error: code, message: code } } }));
    renderPortal('/firstbank/en_us/account/activate?token=old');
    await activateWith('Rewards#2025x');
    expect((await screen.findByRole('alert')).textContent).toBe(`⚠${text}`);
    expect(screen.getByRole('link', { name: 'Send me a new activation link' }).getAttribute('href')).toBe('/firstbank/en_us/account/resend-activation');
  });

  it('ALREADY_ACTIVE (the link opened again): says the account is active and offers sign-in, not a new link', async () => {
    answerWith(
      answersFor({ 'user-mgmt/user/activate-token': { status: 409, data: { error: 'ALREADY_ACTIVE', message: 'x', fields: { token: 'alreadyActive' } } } }),
    );
    renderPortal('/firstbank/en_us/account/activate?token=abc123&siteid=firstbank');
    await activateWith('Rewards#2025x');
    expect((await screen.findByText('Your account is already active. Sign in with your password.')).closest('[role="status"]')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/firstbank/en_us/account/login-form?siteid=firstbank');
    expect(screen.queryByRole('link', { name: 'Send me a new activation link' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Activate account' })).toBeNull();
  });

  it('PASSWORD_INCORRECT: the attempts left with this link, the field marked, the form kept for another try', async () => {
    answerWith(
      answersFor({
        'user-mgmt/user/activate-token': {
          status: 400,
          data: { error: 'PASSWORD_INCORRECT', message: 'x', fields: { password: 'incorrect' }, attemptsLeft: 4 },
        },
      }),
    );
    renderPortal('/firstbank/en_us/account/activate?token=abc123');
    await activateWith('Not-Mine#Pass1');
    expect((await screen.findByRole('alert')).textContent).toBe(
      "⚠That isn't the password chosen when this account was registered. You have 4 attempts left with this link.",
    );
    const field = screen.getByLabelText(/^Password/);
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText("This isn't the password chosen at registration.")).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Activate account' })).toBeTruthy();
  });

  it('the last wrong password spends the link: the way to a password of their own, or a new link; no form', async () => {
    answerWith(
      answersFor({
        'user-mgmt/user/activate-token': {
          status: 400,
          data: { error: 'PASSWORD_INCORRECT', message: 'x', fields: { password: 'incorrect' }, attemptsLeft: 0 },
        },
      }),
    );
    renderPortal('/firstbank/en_us/account/activate?token=abc123');
    await activateWith('Not-Mine#Pass1');
    expect((await screen.findByRole('alert')).textContent).toBe(
      "⚠This link can't be used any more. To choose your own password, reset it; or ask for a new activation link.",
    );
    expect(screen.getByRole('link', { name: "Don't know this password? Choose your own" }).getAttribute('href')).toBe('/firstbank/en_us/account/recovery');
    expect(screen.getByRole('link', { name: 'Send me a new activation link' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Activate account' })).toBeNull();
  });

  it('a link without a token is invalid, and nothing is posted', async () => {
    renderPortal('/firstbank/en_us/account/activate');
    expect((await screen.findByRole('alert')).textContent).toBe("⚠This activation link isn't valid or has already been used.");
    expect(callsTo('user-mgmt/user/activate-token')).toHaveLength(0);
  });
});

describe('§2 resend-activation: always the same answer', () => {
  it('posts { email, siteId, locale } to activation-email and says "check your e-mail"', async () => {
    answerWith(answersFor({ 'user-mgmt/user/activation-email': CHECK_EMAIL }));
    renderPortal('/firstbank/en_us/account/resend-activation');
    fireEvent.change(await screen.findByLabelText(/^Email address/), { target: { value: 'new.user@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send link' }));
    expect((await checkEmailNotice()).textContent).toContain("If an account with that address is waiting to be activated, we've sent it a new link.");
    expect(callsTo('user-mgmt/user/activation-email')[0]?.body).toEqual({ email: 'new.user@example.com', siteId: 'firstbank', locale: 'en_us' });
  });

  it('a reload after the answer shows "check your e-mail" again, not an empty form (ADR 0019 "Flow steps"); nothing is posted again', async () => {
    answerWith(answersFor({ 'user-mgmt/user/activation-email': CHECK_EMAIL }));
    renderPortal('/firstbank/en_us/account/resend-activation');
    fireEvent.change(await screen.findByLabelText(/^Email address/), { target: { value: 'new.user@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send link' }));
    await checkEmailNotice();
    cleanup();
    renderPortal('/firstbank/en_us/account/resend-activation');
    expect((await checkEmailNotice()).textContent).toContain("we've sent it a new link.");
    expect(screen.queryByLabelText(/^Email address/)).toBeNull();
    expect(callsTo('user-mgmt/user/activation-email')).toHaveLength(1);
    expect(window.sessionStorage.getItem('flow_steps')).not.toContain('new.user');
  });
});

describe('§2 recovery, current variant (firstbank en_us): recovery → reset-password with the code', () => {
  async function askForCode() {
    fireEvent.change(await screen.findByLabelText(/^Email address/), { target: { value: 'emily.carter@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
  }

  async function resetWith(passcode: string, password: string) {
    fireEvent.change(await screen.findByLabelText(/^Passcode/), { target: { value: passcode } });
    fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: password } });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: password } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
  }

  it('send-passcode without a channel, then change-password-from-passcode; success → login-form with a notice, recovery forgotten', async () => {
    answerWith(answersFor({ 'user-mgmt/user/send-passcode': CHECK_EMAIL, 'user-mgmt/user/change-password-from-passcode': { status: 200, data: {} } }));
    const { router, store } = renderPortal('/firstbank/en_us/account/recovery');
    await askForCode();
    await waitFor(() => expect(router.state.location.pathname).toBe('/firstbank/en_us/account/reset-password'));
    expect(callsTo('user-mgmt/user/send-passcode')[0]?.body).toEqual({ email: 'emily.carter@example.com', siteId: 'firstbank', locale: 'en_us' });
    expect(await screen.findByText(/If an account uses that address, a recovery code is on its way\./)).toBeTruthy();
    await resetWith('123456', 'Brand-New-Pass-7');
    await waitFor(() => expect(router.state.location.pathname).toBe('/firstbank/en_us/account/login-form'));
    expect(callsTo('user-mgmt/user/change-password-from-passcode')[0]?.body).toEqual({
      email: 'emily.carter@example.com',
      passcode: '123456',
      password: 'Brand-New-Pass-7',
      confirm_password: 'Brand-New-Pass-7',
    });
    expect(await screen.findByText('Your password has been reset. Please sign in with your new password.')).toBeTruthy();
    // The sign-in form starts with the address just reset, never the password.
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>(/^E-?mail/).value).toBe('emily.carter@example.com'));
    expect(screen.getByLabelText<HTMLInputElement>(/^Password/).value).toBe('');
    expect(store.getState().recovery).toEqual({ email: null, channel: null, checkedPasscode: null });
    expect(window.localStorage.length + window.sessionStorage.length).toBe(0);
  });

  it.each([
    [{ error: 'PASSCODE_INVALID', attemptsLeft: 4 }, "That recovery code isn't correct. Attempts left: 4."],
    [{ error: 'PASSCODE_INVALID', attemptsLeft: 0 }, "That code can't be used any more. Please ask for a new one."],
    [{ error: 'PASSWORD_REUSED' }, "Please choose a password you haven't used recently: it must differ from your last 4 passwords."],
    [{ error: 'PASSWORD_COMPROMISED' }, "That password has appeared in a data breach and can't be used. Please choose another one."],
    [{ error: 'VALIDATION_FAILED', fields: { password: 'passwordRulesError' } }, 'Please check the highlighted fields.'],
  ])('change-password-from-passcode %o: the text, and the person stays on the step', async (body, text) => {
    answerWith(
      answersFor({
        'user-mgmt/user/send-passcode': CHECK_EMAIL,
        'user-mgmt/user/change-password-from-passcode': { status: 400, data: { message: 'x', ...body } },
      }),
    );
    const { router } = renderPortal('/firstbank/en_us/account/recovery');
    await askForCode();
    await resetWith('654321', 'Brand-New-Pass-7');
    expect((await screen.findByRole('alert')).textContent).toBe(`⚠${text}`);
    expect(router.state.location.pathname).toBe('/firstbank/en_us/account/reset-password');
    expect(screen.getByLabelText<HTMLInputElement>(/^Passcode/).value).toBe('654321');
  });

  it('reset-password is open (SPEC §2), but without an e-mail from the first step it says to ask for a code, links there by those words, and offers no form', async () => {
    const { router } = renderPortal('/firstbank/en_us/account/reset-password');
    expect(await screen.findByText('To set a new password, first ask for a recovery code.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ask for a recovery code' }).getAttribute('href')).toBe('/firstbank/en_us/account/recovery');
    expect(screen.queryByLabelText(/^New password/)).toBeNull();
    expect(router.state.location.pathname).toBe('/firstbank/en_us/account/reset-password');
  });
});

describe('§2 recovery, step-by-step variant (sabana: send_sms "true"; bancosol: pt_br)', () => {
  it('recovery → passcode-preference (no destinations) → send-passcode with the channel → passcode (find-code) → reset-password without the code field', async () => {
    answerWith(
      answersFor({
        'user-mgmt/user/send-passcode': CHECK_EMAIL,
        'user-mgmt/user/find-code': { status: 200, data: { status: 'CODE_OK' } },
        'user-mgmt/user/change-password-from-passcode': { status: 200, data: {} },
      }),
    );
    const { router, store } = renderPortal('/sabana/en_us/account/recovery');
    fireEvent.change(await screen.findByLabelText(/^Email address/), { target: { value: 'camila.rojas@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sabana/en_us/account/passcode-preference'));
    // Nothing is sent before the person chooses, and no destination is shown (ADR 0009).
    expect(callsTo('user-mgmt/user/send-passcode')).toHaveLength(0);
    expect(screen.queryByText(/@/)).toBeNull();
    fireEvent.click(await screen.findByLabelText('Text message to the phone on my account'));
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sabana/en_us/account/passcode'));
    expect(callsTo('user-mgmt/user/send-passcode')[0]?.body).toEqual({ email: 'camila.rojas@example.com', siteId: 'sabana', locale: 'en_us', channel: 'sms' });

    fireEvent.change(await screen.findByLabelText(/^Passcode/), { target: { value: '246810' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sabana/en_us/account/reset-password'));
    expect(callsTo('user-mgmt/user/find-code')[0]?.body).toEqual({ email: 'camila.rojas@example.com', passcode: '246810' });
    expect(store.getState().recovery.checkedPasscode).toBe('246810');

    expect(await screen.findByLabelText(/^New password/)).toBeTruthy();
    expect(screen.queryByLabelText(/^Passcode/)).toBeNull();
    fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'Brand-New-Pass-7' } });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: 'Brand-New-Pass-7' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sabana/en_us/account/login-form'));
    expect(callsTo('user-mgmt/user/change-password-from-passcode')[0]?.body).toEqual({
      email: 'camila.rojas@example.com',
      passcode: '246810',
      password: 'Brand-New-Pass-7',
      confirm_password: 'Brand-New-Pass-7',
    });
    expect(store.getState().recovery.checkedPasscode).toBeNull();
    expect(window.localStorage.length + window.sessionStorage.length).toBe(0);
  });

  it('find-code PASSCODE_INVALID: attempts left, stays on passcode', async () => {
    answerWith(
      answersFor({
        'user-mgmt/user/send-passcode': CHECK_EMAIL,
        'user-mgmt/user/find-code': { status: 400, data: { error: 'PASSCODE_INVALID', message: 'x', attemptsLeft: 2 } },
      }),
    );
    const { router } = renderPortal('/bancosol/pt_br/account/recovery');
    fireEvent.change(await screen.findByLabelText(/^Email address|^E-mail/), { target: { value: 'ana@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Send code' }));
    fireEvent.change(await screen.findByLabelText(/^Passcode/), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe("⚠That recovery code isn't correct. Attempts left: 2.");
    expect(router.state.location.pathname).toBe('/bancosol/pt_br/account/passcode');
  });

  // ADR 0008 OTP_SPENT, as at the sign-in passcode step (tests/src/screens/login-otp.test.tsx).
  it('find-code OTP_SPENT: says the code is spent, rests the submit button, offers a new code, stays on passcode', async () => {
    answerWith(
      answersFor({
        'user-mgmt/user/send-passcode': CHECK_EMAIL,
        'user-mgmt/user/find-code': { status: 401, data: { error: 'OTP_SPENT', message: 'x', attemptsLeft: 0 }, headers: { 'retry-after': '540' } },
      }),
    );
    const { router } = renderPortal('/sabana/en_us/account/recovery');
    fireEvent.change(await screen.findByLabelText(/^Email address|^E-mail/), { target: { value: 'ana@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Send code' }));
    fireEvent.change(await screen.findByLabelText(/^Passcode/), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      "⚠That passcode can't be used any more: it was already used, or tried too many times. Ask for a new passcode.",
    );
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Continue' }).disabled).toBe(true);
    expect(screen.getByRole('link', { name: 'Ask for a new code' }).getAttribute('href')).toBe('/sabana/en_us/account/passcode-preference');
    expect(router.state.location.pathname).toBe('/sabana/en_us/account/passcode');
  });

  it('the current variant has no passcode steps: the guard sends passcode-preference to recovery', async () => {
    const { router } = renderPortal('/firstbank/en_us/account/passcode-preference');
    await waitFor(() => expect(router.state.location.pathname).toBe('/firstbank/en_us/account/recovery'));
  });
});
