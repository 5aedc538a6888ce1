// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
 * "Confirm it's you" (src/screens/shared/use-fresh-proof.tsx): the gateway refuses a change that lets
 * someone own the account with 403 FRESH_PROOF_REQUIRED { proof, channels } until a code has passed
 * user-auth/otp/verify (ADR 0008); the screen opens the dialog in place (SPEC §2 generic modal), and
 * the same call goes again once the code passes. Over the fake gateway, on each screen that makes
 * such a call: edit-profile (phone), password, mfa-setup, delete-profile.
 */
const BASE = '/firstbank/en_us/account/';

const ATTRIBUTES = { first_name: 'Emily', last_name: 'Carter', dob: '1988-04-12', phone: '2025550143', ninedigitbin: '411111111' };
const DETAILS = { email: 'e***@example.com', phone: '*** *** 0143' };

function freshProofRequired(proof: 'totp' | 'passcode', channels?: string[]): Answer {
  return {
    status: 403,
    data: { error: 'FRESH_PROOF_REQUIRED', message: "Confirm it's you first.", proof, ...(channels ? { channels } : {}) },
  };
}

/**
 * The signed-in gateway with a proof check in front of `guarded`: refused until a verify passed, then the
 * answer `then`. Verify answers from `verifyAnswers` in turn (the last one repeats).
 */
function gateway(options: { guarded: string; then: Answer; demand: Answer; verifyAnswers?: Answer[]; sendAnswer?: Answer; extra?: Record<string, Answer> }) {
  let proven = false;
  const verifyAnswers = [...(options.verifyAnswers ?? [{ status: 200, data: { verifiedUntil: '2030-01-01T00:10:00.000Z' } }])];
  answerWith((call: SentCall): Answer | undefined => {
    if (call.url === options.guarded) return proven ? options.then : options.demand;
    if (call.url === 'user-auth/otp/verify') {
      const answer = verifyAnswers.length > 1 ? verifyAnswers.shift()! : verifyAnswers[0]!;
      if (answer.status === 200) proven = true;
      return answer;
    }
    if (call.url === 'user-mgmt/user/get-preference-details') return { status: 200, data: DETAILS };
    if (call.url === 'user-mgmt/user/send-code') return options.sendAnswer ?? { status: 204 };
    if (call.url === 'user-attribute/user/firstbank')
      return { status: 200, data: { userSites: { firstbank: { siteId: 'firstbank', attributes: ATTRIBUTES, version: 3 } } } };
    return options.extra?.[call.url] ?? (document.cookie.includes('gmap_authenticated=true') ? signedInAnswers(call) : undefined);
  });
}

const dialog = () => screen.findByRole('dialog', { name: "Confirm it's you" });
const codeField = (within_: HTMLElement) => within(within_).getByLabelText<HTMLInputElement>('6-digit code');

/** The texts a field is described by (its error, its wait). */
function descriptionOf(field: HTMLElement): string {
  return (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

async function changePhone(to: string) {
  fireEvent.change(await screen.findByLabelText(/^Phone number/), { target: { value: to } });
  fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
}

beforeEach(() => {
  resetFakePortal();
  signInTheBrowser();
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('edit-profile: a changed phone asks for fresh proof by passcode', () => {
  it('opens the dialog, sends to the chosen channel, shows it masked, and after the right code saves the same change and goes on', async () => {
    gateway({
      guarded: 'user-attribute/v2/user/firstbank',
      demand: freshProofRequired('passcode', ['email', 'sms']),
      then: { status: 200, data: { siteId: 'firstbank', attributes: {}, version: 4 } },
      extra: { 'user-mgmt/user/update': { status: 200, data: PROFILE } },
    });
    const { router } = renderPortal(`${BASE}edit-profile`);
    await changePhone('2125550123');
    const box = await dialog();
    expect(document.body.classList.contains('modal-open')).toBe(true);
    expect(callsTo('user-mgmt/user/get-preference-details')[0]?.body).toEqual({ primaryUserIdentifier: PROFILE.primaryUserIdentifier, siteId: 'firstbank' });
    // Both channels, masked as get-preference-details gives them; nothing is sent before the person chooses.
    const sms = await within(box).findByRole('radio', { name: 'Text message to *** *** 0143' });
    expect(within(box).getByRole<HTMLInputElement>('radio', { name: 'Email to e***@example.com' }).checked).toBe(true);
    expect(callsTo('user-mgmt/user/send-code')).toHaveLength(0);
    fireEvent.click(sms);
    fireEvent.click(within(box).getByRole('button', { name: 'Send passcode' }));
    expect(await within(box).findByText('We sent a 6-digit passcode by text message to *** *** 0143.')).toBeTruthy();
    expect(callsTo('user-mgmt/user/send-code')).toEqual([expect.objectContaining({ body: { channel: 'sms', purpose: 'otp-check' } })]);
    expect(document.activeElement).toBe(codeField(box));

    fireEvent.change(codeField(box), { target: { value: '246810' } });
    fireEvent.click(within(box).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}profile`));
    expect(callsTo('user-auth/otp/verify')[0]?.body).toEqual({ otp: '246810', otp_type: 'sms' });
    const saves = callsTo('user-attribute/v2/user/firstbank');
    expect(saves).toHaveLength(2);
    expect(saves[1]?.body).toEqual(saves[0]?.body);
    expect(saves[0]?.body).toEqual({ attributes: { phone: '2125550123' }, baseVersion: 3 });
    expect(callsTo('user-mgmt/user/update')).toHaveLength(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByText('Your profile has been saved.')).toBeTruthy();
    // A pass of user-auth/otp/verify is remembered as the otp-check screens remember it (SPEC §4, §9 otp_expiry).
    expect(window.localStorage.getItem('otp_expiry')).toBe(String(Date.parse('2030-01-01T00:10:00.000Z') / 1000));
  });

  it('a wrong code says so next to the field with the attempts left, keeps the dialog open and the person signed in; nothing is saved', async () => {
    gateway({
      guarded: 'user-attribute/v2/user/firstbank',
      demand: freshProofRequired('passcode', ['email']),
      then: { status: 200, data: { siteId: 'firstbank', attributes: {}, version: 4 } },
      verifyAnswers: [{ status: 401, data: { error: 'OTP_INVALID', message: 'wrong', attemptsLeft: 2 } }],
    });
    const { router, store } = renderPortal(`${BASE}edit-profile`);
    await changePhone('2125550123');
    const box = await dialog();
    // One channel: the code goes at once, and the dialog says where.
    expect(await within(box).findByText('We sent a 6-digit passcode to your email e***@example.com.')).toBeTruthy();
    expect(callsTo('user-mgmt/user/send-code')[0]?.body).toEqual({ channel: 'email', purpose: 'otp-check' });
    fireEvent.change(codeField(box), { target: { value: '111111' } });
    fireEvent.click(within(box).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(codeField(box).getAttribute('aria-invalid')).toBe('true'));
    expect(descriptionOf(codeField(box))).toBe("That passcode isn't correct. You have 2 attempts left.");
    expect(document.activeElement).toBe(codeField(box));
    expect(screen.getByRole('dialog')).toBe(box);
    expect(store.getState().auth.name).toBe('LOGGEDIN');
    expect(goToSignIn).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe(`${BASE}edit-profile`);
    expect(callsTo('user-attribute/v2/user/firstbank')).toHaveLength(1);
  });

  it('an expired code says so; "Send a new passcode" sends another after its rest, announced', async () => {
    gateway({
      guarded: 'user-attribute/v2/user/firstbank',
      demand: freshProofRequired('passcode', ['email']),
      then: { status: 200, data: { siteId: 'firstbank', attributes: {}, version: 4 } },
      verifyAnswers: [{ status: 401, data: { error: 'OTP_EXPIRED', message: 'expired', attemptsLeft: 4 } }],
    });
    renderPortal(`${BASE}edit-profile`);
    await changePhone('2125550123');
    const box = await dialog();
    await within(box).findByText('We sent a 6-digit passcode to your email e***@example.com.');
    fireEvent.change(codeField(box), { target: { value: '222222' } });
    fireEvent.click(within(box).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(descriptionOf(codeField(box))).toBe('That passcode has expired. Ask for a new passcode.'));
    // A spent code never passes (ADR 0008): Confirm rests until a new one is sent.
    expect(within(box).getByRole<HTMLButtonElement>('button', { name: 'Confirm' }).disabled).toBe(true);
    // The link rests 30 s after a send (as on the sign-in step), then sends a new code to the same place.
    const resend = within(box).getByRole<HTMLButtonElement>('button', { name: /^Send a new passcode \(\d+ s\)$/ });
    expect(resend.disabled).toBe(true);
    // The countdown reads the clock on each tick: 31 s later it is over.
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 31_000);
    const ready = await within(box).findByRole<HTMLButtonElement>('button', { name: 'Send a new passcode' });
    expect(ready.disabled).toBe(false);
    expect(within(box).getByText('You can ask for a new passcode now.')).toBeTruthy();
    fireEvent.click(ready);
    expect(await within(box).findByText('A new passcode is on its way.')).toBeTruthy();
    expect(within(box).getByRole<HTMLButtonElement>('button', { name: 'Confirm' }).disabled).toBe(false);
    expect(callsTo('user-mgmt/user/send-code').map((call) => call.body)).toEqual([
      { channel: 'email', purpose: 'otp-check' },
      { channel: 'email', purpose: 'otp-check' },
    ]);
  });

  it('a wait the gateway asks for (429, Retry-After) is shown next to the field and counted down; Confirm rests meanwhile', async () => {
    gateway({
      guarded: 'user-attribute/v2/user/firstbank',
      demand: freshProofRequired('passcode', ['email']),
      then: { status: 200, data: { siteId: 'firstbank', attributes: {}, version: 4 } },
      verifyAnswers: [{ status: 429, data: { error: 'RATE_LIMITED', message: 'slow down' }, headers: { 'retry-after': '42' } }],
    });
    renderPortal(`${BASE}edit-profile`);
    await changePhone('2125550123');
    const box = await dialog();
    await within(box).findByText('We sent a 6-digit passcode to your email e***@example.com.');
    fireEvent.change(codeField(box), { target: { value: '333333' } });
    fireEvent.click(within(box).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(descriptionOf(codeField(box))).toContain('Too many requests. Please wait, then try again.'));
    expect(descriptionOf(codeField(box))).toMatch(/You can try again in (42|41) s\./);
    expect(within(box).getByRole<HTMLButtonElement>('button', { name: 'Confirm' }).disabled).toBe(true);
    expect(goToSignIn).not.toHaveBeenCalled();
  });

  it('a 503 on sending (DELIVERY_UNAVAILABLE, Retry-After) is said in the dialog and holds the resend link back', async () => {
    gateway({
      guarded: 'user-attribute/v2/user/firstbank',
      demand: freshProofRequired('passcode', ['email']),
      then: { status: 200, data: { siteId: 'firstbank', attributes: {}, version: 4 } },
      sendAnswer: { status: 503, data: { error: 'DELIVERY_UNAVAILABLE', message: 'x' }, headers: { 'retry-after': '60' } },
    });
    renderPortal(`${BASE}edit-profile`);
    await changePhone('2125550123');
    const box = await dialog();
    expect(await within(box).findByText("We couldn't send your code just now. Please wait, then try again.")).toBeTruthy();
    expect(within(box).getByRole<HTMLButtonElement>('button', { name: /^Send a new passcode \((60|59) s\)$/ }).disabled).toBe(true);
    expect(goToSignIn).not.toHaveBeenCalled();
  });

  it('Cancel closes it: nothing is saved, the typed phone stays in the form, a notice says nothing was saved, focus is back on the button', async () => {
    gateway({
      guarded: 'user-attribute/v2/user/firstbank',
      demand: freshProofRequired('passcode', ['email', 'sms']),
      then: { status: 200, data: { siteId: 'firstbank', attributes: {}, version: 4 } },
    });
    const { router } = renderPortal(`${BASE}edit-profile`);
    fireEvent.change(await screen.findByLabelText(/^Last name/), { target: { value: 'Carter-Jones' } });
    const save = screen.getByRole('button', { name: 'Save changes' });
    save.focus();
    await changePhone('2125550123');
    const box = await dialog();
    fireEvent.click(within(box).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // A notice, not an alert: it does not take the focus the dialog gives back (SPEC §2 modal). The focus moves in
    // an effect after the dialog's last render, so it is awaited like the dialog's going.
    const notice = await screen.findByText("Nothing was saved, because you didn't confirm it's you. What you entered is still here, so you can try again.");
    expect(notice.closest('[role="status"]')).not.toBeNull();
    expect(screen.getByLabelText<HTMLInputElement>(/^Phone number/).value).toBe('(212) 555-0123');
    expect(screen.getByLabelText<HTMLInputElement>(/^Last name/).value).toBe('Carter-Jones');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Save changes' })));
    expect(document.body.classList.contains('modal-open')).toBe(false);
    expect(router.state.location.pathname).toBe(`${BASE}edit-profile`);
    expect(callsTo('user-attribute/v2/user/firstbank')).toHaveLength(1);
    expect(callsTo('user-mgmt/user/send-code')).toHaveLength(0);
    expect(callsTo('user-auth/otp/verify')).toHaveLength(0);
    expect(callsTo('user-mgmt/user/update')).toHaveLength(0);
  });

  it('Escape closes it like Cancel; saving again opens it again, and the notice goes', async () => {
    gateway({
      guarded: 'user-attribute/v2/user/firstbank',
      demand: freshProofRequired('passcode', ['email', 'sms']),
      then: { status: 200, data: { siteId: 'firstbank', attributes: {}, version: 4 } },
    });
    renderPortal(`${BASE}edit-profile`);
    await changePhone('2125550123');
    fireEvent.keyDown(await dialog(), { key: 'Escape' });
    await screen.findByText(/^Nothing was saved/);
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await dialog();
    expect(screen.queryByText(/^Nothing was saved/)).toBeNull();
    expect(callsTo('user-attribute/v2/user/firstbank')).toHaveLength(2);
  });

  it('a code that is not six digits is named next to the field and not sent', async () => {
    gateway({
      guarded: 'user-attribute/v2/user/firstbank',
      demand: freshProofRequired('passcode', ['email']),
      then: { status: 200, data: { siteId: 'firstbank', attributes: {}, version: 4 } },
    });
    renderPortal(`${BASE}edit-profile`);
    await changePhone('2125550123');
    const box = await dialog();
    await within(box).findByText(/^We sent a 6-digit passcode/);
    fireEvent.change(codeField(box), { target: { value: '12a4' } });
    fireEvent.click(within(box).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(descriptionOf(codeField(box))).toBe('Enter the 6 digits of your code.'));
    expect(callsTo('user-auth/otp/verify')).toHaveLength(0);
  });
});

describe('password: fresh proof with an authenticator (totp)', () => {
  async function changePassword() {
    fireEvent.change(await screen.findByLabelText(/^Current password/), { target: { value: 'Old-Pass-123' } });
    fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'Brand-New-Pass-7' } });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: 'Brand-New-Pass-7' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
  }

  it('asks for the app code (nothing sent, no channel), verifies it as totp, then changes the password with the same body', async () => {
    gateway({ guarded: 'user-mgmt/user/change-password', demand: freshProofRequired('totp'), then: { status: 200, data: {} } });
    const { router } = renderPortal(`${BASE}password`);
    await changePassword();
    const box = await dialog();
    expect(within(box).getByText('Enter the 6-digit code from your authenticator app.')).toBeTruthy();
    expect(within(box).queryByRole('radio')).toBeNull();
    expect(within(box).queryByRole('button', { name: /Send a new passcode/ })).toBeNull();
    fireEvent.change(codeField(box), { target: { value: '135790' } });
    fireEvent.click(within(box).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}profile`));
    expect(await screen.findByText('Your password has been updated.')).toBeTruthy();
    expect(callsTo('user-auth/otp/verify')[0]?.body).toEqual({ otp: '135790', otp_type: 'totp' });
    expect(callsTo('user-mgmt/user/send-code')).toHaveLength(0);
    expect(callsTo('user-mgmt/user/get-preference-details')).toHaveLength(0);
    const changes = callsTo('user-mgmt/user/change-password');
    expect(changes).toHaveLength(2);
    expect(changes[1]?.body).toEqual(changes[0]?.body);
    expect(changes[0]?.body).toEqual({ currentPassword: 'Old-Pass-123', password: 'Brand-New-Pass-7', confirm_password: 'Brand-New-Pass-7' });
  });

  it('a wrong app code keeps the dialog and the session; Cancel keeps the typed passwords and changes nothing', async () => {
    gateway({
      guarded: 'user-mgmt/user/change-password',
      demand: freshProofRequired('totp'),
      then: { status: 200, data: {} },
      verifyAnswers: [{ status: 401, data: { error: 'OTP_INVALID', message: 'wrong', attemptsLeft: 1 } }],
    });
    const { router, store } = renderPortal(`${BASE}password`);
    await changePassword();
    const box = await dialog();
    fireEvent.change(codeField(box), { target: { value: '000000' } });
    fireEvent.click(within(box).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(descriptionOf(codeField(box))).toBe("That passcode isn't correct. You have 1 attempt left."));
    expect(store.getState().auth.name).toBe('LOGGEDIN');
    expect(goToSignIn).not.toHaveBeenCalled();
    fireEvent.click(within(box).getByRole('button', { name: 'Cancel' }));
    await screen.findByText(/^Nothing was saved/);
    expect(screen.getByLabelText<HTMLInputElement>(/^New password/).value).toBe('Brand-New-Pass-7');
    expect(screen.getByLabelText<HTMLInputElement>(/^Current password/).value).toBe('Old-Pass-123');
    expect(callsTo('user-mgmt/user/change-password')).toHaveLength(1);
    expect(router.state.location.pathname).toBe(`${BASE}password`);
  });

  it('a session that ended during the check (401 UNAUTHENTICATED on verify) goes to sign-in as §8 says', async () => {
    gateway({
      guarded: 'user-mgmt/user/change-password',
      demand: freshProofRequired('totp'),
      then: { status: 200, data: {} },
      verifyAnswers: [{ status: 401, data: { error: 'UNAUTHENTICATED', message: 'expired' } }],
    });
    const { store } = renderPortal(`${BASE}password`);
    await changePassword();
    const box = await dialog();
    fireEvent.change(codeField(box), { target: { value: '135790' } });
    fireEvent.click(within(box).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(goToSignIn).toHaveBeenCalled());
    expect(store.getState().auth.name).toBe('LOGGEDOUT');
    expect(callsTo('user-mgmt/user/change-password')).toHaveLength(1);
  });
});

describe('a reload while the code is on its way (ADR 0019 "Flow steps")', () => {
  it('the same change asks for the code already sent, sends none, and a passed check ends the kept step', async () => {
    gateway({
      guarded: 'user-attribute/v2/user/firstbank',
      demand: freshProofRequired('passcode', ['email', 'sms']),
      then: { status: 200, data: { siteId: 'firstbank', attributes: {}, version: 4 } },
      extra: { 'user-mgmt/user/update': { status: 200, data: PROFILE } },
    });
    renderPortal(`${BASE}edit-profile`);
    await changePhone('2125550123');
    let box = await dialog();
    fireEvent.click(await within(box).findByRole('radio', { name: 'Text message to *** *** 0143' }));
    fireEvent.click(within(box).getByRole('button', { name: 'Send passcode' }));
    await within(box).findByText('We sent a 6-digit passcode by text message to *** *** 0143.');
    expect(window.sessionStorage.getItem('flow_steps')).toContain('confirm-its-you');
    cleanup();
    const { router } = renderPortal(`${BASE}edit-profile`);
    await changePhone('2125550123');
    box = await dialog();
    expect(await within(box).findByText('We sent a 6-digit passcode by text message to *** *** 0143.')).toBeTruthy();
    expect(within(box).queryByRole('radio')).toBeNull();
    expect(callsTo('user-mgmt/user/send-code')).toHaveLength(1);
    fireEvent.change(codeField(box), { target: { value: '246810' } });
    fireEvent.click(within(box).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}profile`));
    expect(callsTo('user-auth/otp/verify')[0]?.body).toEqual({ otp: '246810', otp_type: 'sms' });
    expect(window.sessionStorage.getItem('flow_steps') ?? '').not.toContain('confirm-its-you');
  });

  it('a kept send older than a passcode lives (10 minutes) is not used: the code is sent again', async () => {
    const sentAt = Date.now() - 11 * 60 * 1000;
    window.sessionStorage.setItem(
      'flow_steps',
      JSON.stringify({ 'confirm-its-you': { siteId: 'firstbank', step: { channel: 'email', maskedDestination: 'e***@example.com', sentAt } } }),
    );
    gateway({
      guarded: 'user-mgmt/user/mfa/totp/setup',
      demand: freshProofRequired('passcode', ['email']),
      then: { status: 200, data: { secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x', qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"/>' } },
    });
    renderPortal(`${BASE}mfa-setup`);
    fireEvent.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    await within(await dialog()).findByText('We sent a 6-digit passcode to your email e***@example.com.');
    await waitFor(() => expect(callsTo('user-mgmt/user/send-code')).toHaveLength(1));
  });
});

describe('mfa-setup and delete-profile', () => {
  it('mfa/totp/setup asks for a passcode first; after it the setup goes again and the QR code shows', async () => {
    gateway({
      guarded: 'user-mgmt/user/mfa/totp/setup',
      demand: freshProofRequired('passcode', ['email', 'sms']),
      then: { status: 200, data: { secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x', qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"/>' } },
    });
    renderPortal(`${BASE}mfa-setup`);
    fireEvent.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    const box = await dialog();
    fireEvent.click(await within(box).findByRole('button', { name: 'Send passcode' }));
    await within(box).findByText('We sent a 6-digit passcode to your email e***@example.com.');
    fireEvent.change(codeField(box), { target: { value: '246810' } });
    fireEvent.click(within(box).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('img', { name: 'QR code for adding your account to an authenticator app' })).toBeTruthy();
    expect(callsTo('user-mgmt/user/mfa/totp/setup')).toHaveLength(2);
    expect(callsTo('user-auth/otp/verify')[0]?.body).toEqual({ otp: '246810', otp_type: 'email' });
  });

  it('a reload on the scan step asks for the set-up again and shows the key; enrolling ends the kept step (ADR 0019 "Flow steps")', async () => {
    gateway({
      guarded: 'user-mgmt/user/mfa/totp/enroll',
      demand: { status: 200, data: { mfaEnrollmentStatus: 'ENROLLED', backupCodes: ['AAAAA-BBBBB'] } },
      then: { status: 200, data: { mfaEnrollmentStatus: 'ENROLLED', backupCodes: ['AAAAA-BBBBB'] } },
      extra: {
        'user-mgmt/user/mfa/totp/setup': {
          status: 200,
          data: { secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x', qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"/>' },
        },
      },
    });
    renderPortal(`${BASE}mfa-setup`);
    fireEvent.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    expect((await screen.findByTestId('totp-key')).textContent).toBe('JBSW Y3DP EHPK 3PXP');
    await waitFor(() => expect(window.sessionStorage.getItem('flow_steps')).toContain('mfa-setup'));
    expect(window.sessionStorage.getItem('flow_steps')).not.toContain('JBSW');
    cleanup();
    renderPortal(`${BASE}mfa-setup`);
    expect((await screen.findByTestId('totp-key')).textContent).toBe('JBSW Y3DP EHPK 3PXP');
    expect(callsTo('user-mgmt/user/mfa/totp/setup')).toHaveLength(2);
    fireEvent.change(await screen.findByLabelText(/^Passcode/), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-step verification' }));
    await screen.findByRole('heading', { name: 'Your backup codes' });
    expect(window.sessionStorage.getItem('flow_steps') ?? '').not.toContain('mfa-setup');
  });

  it('mfa/totp/enroll asks too; the same first code is sent again after the check', async () => {
    gateway({
      guarded: 'user-mgmt/user/mfa/totp/enroll',
      demand: freshProofRequired('passcode', ['email']),
      then: { status: 200, data: { mfaEnrollmentStatus: 'ENROLLED', backupCodes: ['AAAAA-BBBBB'] } },
      extra: {
        'user-mgmt/user/mfa/totp/setup': {
          status: 200,
          data: { secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x', qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"/>' },
        },
      },
    });
    renderPortal(`${BASE}mfa-setup`);
    fireEvent.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    fireEvent.change(await screen.findByLabelText(/^Passcode/), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-step verification' }));
    const box = await dialog();
    await within(box).findByText(/^We sent a 6-digit passcode/);
    fireEvent.change(codeField(box), { target: { value: '246810' } });
    fireEvent.click(within(box).getByRole('button', { name: 'Confirm' }));
    await screen.findByRole('heading', { name: 'Your backup codes' });
    expect(callsTo('user-mgmt/user/mfa/totp/enroll').map((call) => call.body)).toEqual([{ code: '123456' }, { code: '123456' }]);
  });

  it('delete-profile: Cancel keeps the account and the typed password; after a right code the same deletion (password in its body) goes', async () => {
    gateway({
      guarded: 'user-mgmt/user/remove-account',
      demand: freshProofRequired('passcode', ['sms']),
      then: { status: 200, data: {} },
      extra: { 'user-auth/tokens/revoke': { status: 200, data: {} } },
    });
    const { router } = renderPortal(`${BASE}delete-profile`);
    fireEvent.change(await screen.findByLabelText(/^Current password/), { target: { value: 'Old-Pass-123' } });
    fireEvent.click(screen.getByLabelText(/I understand that my account/));
    fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    let box = await dialog();
    await within(box).findByText('We sent a 6-digit passcode by text message to *** *** 0143.');
    fireEvent.click(within(box).getByRole('button', { name: 'Close' }));
    await screen.findByText(/^Nothing was saved/);
    expect(screen.getByLabelText<HTMLInputElement>(/^Current password/).value).toBe('Old-Pass-123');
    expect(router.state.location.pathname).toBe(`${BASE}delete-profile`);

    fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    box = await dialog();
    await within(box).findByText(/^We sent a 6-digit passcode/);
    fireEvent.change(codeField(box), { target: { value: '246810' } });
    fireEvent.click(within(box).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}login-form`));
    const removals = callsTo('user-mgmt/user/remove-account');
    expect(removals.map((call) => call.body)).toEqual([{ password: 'Old-Pass-123' }, { password: 'Old-Pass-123' }, { password: 'Old-Pass-123' }]);
    // Opened again, the dialog asks for the code sent before Cancel, still live (ADR 0008, ADR 0019 "Flow steps").
    expect(callsTo('user-mgmt/user/send-code').map((call) => call.body)).toEqual([{ channel: 'sms', purpose: 'otp-check' }]);
  });
});
