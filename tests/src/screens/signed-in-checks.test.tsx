// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
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
 * SPEC §2 signed-in screens of sign-in (ADR 0008): otp-check-preference / otp-check-passcode (re-check with a
 * passcode, ADR 0008 send-code purpose otp-check and user-auth/otp/verify), mfa-setup (TOTP
 * enrolment) and logout (§4).
 */
const BASE = '/firstbank/en_us/account/';

beforeEach(() => {
  resetFakePortal();
  signInTheBrowser();
});
afterEach(() => {
  cleanup();
  delete (window as { ReactNativeWebView?: unknown }).ReactNativeWebView;
});

function signedIn(answers: Record<string, Answer>, profile = PROFILE) {
  answerWith((call: SentCall) => answers[call.url] ?? signedInAnswers(call, profile));
}

describe('§2 otp-check-preference → otp-check-passcode', () => {
  it('asks get-preference-details for the signed-in user, sends the code for otp-check, verifies it and stores otp_expiry', async () => {
    signedIn({
      'user-mgmt/user/get-preference-details': { status: 200, data: { email: 'e***@example.com', phone: '*** *** 0143' } },
      'user-mgmt/user/send-code': { status: 204 },
      'user-auth/otp/verify': { status: 200, data: { verifiedUntil: '2030-01-01T00:15:00.000Z' } },
    });
    const { router } = renderPortal(`${BASE}otp-check-preference`);
    fireEvent.click(await screen.findByRole('button', { name: 'Send passcode' }));
    await screen.findByText('We sent a 6-digit passcode to your email e***@example.com.');
    expect(router.state.location.pathname).toBe(`${BASE}otp-check-passcode`);
    expect(callsTo('user-mgmt/user/get-preference-details')[0]?.body).toEqual({ primaryUserIdentifier: PROFILE.primaryUserIdentifier, siteId: 'firstbank' });
    expect(callsTo('user-mgmt/user/send-code')[0]?.body).toEqual({ channel: 'email', purpose: 'otp-check' });

    fireEvent.change(screen.getByLabelText(/^Passcode/), { target: { value: '246810' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}profile`));
    expect(callsTo('user-auth/otp/verify')[0]?.body).toEqual({ otp: '246810', otp_type: 'email' });
    expect(window.localStorage.getItem('otp_expiry')).toBe(String(Date.parse('2030-01-01T00:15:00.000Z') / 1000));
    expect(await screen.findByText("Thanks, you're verified.")).toBeTruthy();
  });

  it('a wrong code (401 OTP_INVALID) shows its text and keeps the session (§8: nothing handled on /otp-check-passcode)', async () => {
    signedIn({
      'user-mgmt/user/get-preference-details': { status: 200, data: { email: 'e***@example.com', phone: null } },
      'user-mgmt/user/send-code': { status: 204 },
      'user-auth/otp/verify': { status: 401, data: { error: 'OTP_INVALID', message: 'wrong', attemptsLeft: 2 } },
    });
    const { router } = renderPortal(`${BASE}otp-check-preference`);
    fireEvent.click(await screen.findByRole('button', { name: 'Send passcode' }));
    fireEvent.change(await screen.findByLabelText(/^Passcode/), { target: { value: '111111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe("⚠That passcode isn't correct. You have 2 attempts left.");
    expect(router.state.location.pathname).toBe(`${BASE}otp-check-passcode`);
    expect(goToSignIn).not.toHaveBeenCalled();
    expect(window.localStorage.getItem('otp_expiry')).toBeNull();
  });

  it('a spent code (401 OTP_SPENT) says so, rests Verify and offers a new passcode', async () => {
    signedIn({
      'user-mgmt/user/get-preference-details': { status: 200, data: { email: 'e***@example.com', phone: null } },
      'user-mgmt/user/send-code': { status: 204 },
      'user-auth/otp/verify': { status: 401, data: { error: 'OTP_SPENT', message: 'spent' } },
    });
    const { router } = renderPortal(`${BASE}otp-check-preference`);
    fireEvent.click(await screen.findByRole('button', { name: 'Send passcode' }));
    fireEvent.change(await screen.findByLabelText(/^Passcode/), { target: { value: '111111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/can't be used any more/);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Verify' }).disabled).toBe(true);
    fireEvent.click(screen.getByRole('link', { name: 'Send a new passcode' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}otp-check-preference`));
  });

  it('§4 a valid trusted-OTP state asks nothing; a passed one is cleared and the choice is offered', async () => {
    signedIn({ 'user-mgmt/user/get-preference-details': { status: 200, data: { email: 'e***@example.com', phone: null } } });
    window.localStorage.setItem('otp_expiry', String(Math.floor(Date.now() / 1000) + 600));
    renderPortal(`${BASE}otp-check-preference`);
    expect(await screen.findByText("You've already confirmed it's you on this device.")).toBeTruthy();
    expect(callsTo('user-mgmt/user/get-preference-details')).toHaveLength(0);
    cleanup();

    window.localStorage.setItem('otp_expiry', String(Math.floor(Date.now() / 1000) - 1));
    renderPortal(`${BASE}otp-check-preference`);
    await screen.findByRole('radio', { name: 'Email to e***@example.com' });
    expect(window.localStorage.getItem('otp_expiry')).toBeNull();
  });

  it('otp-check-passcode reached directly (no code sent) points to the channel choice', async () => {
    signedIn({});
    renderPortal(`${BASE}otp-check-passcode`);
    expect((await screen.findByRole('link', { name: 'Choose where to get your passcode' })).getAttribute('href')).toBe(`${BASE}otp-check-preference`);
  });
});

describe('§2 mfa-setup: TOTP enrolment with a QR code and a manual key', () => {
  const SETUP = {
    secret: 'JBSWY3DPEHPK3PXPJBSWY3DP',
    otpauthUrl: 'otpauth://totp/x',
    qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>',
  };

  const BACKUP_CODES = [
    'AAAAA-BBBBB',
    'CCCCC-DDDDD',
    'EEEEE-FFFFF',
    'GGGGG-HHHHH',
    'IIIII-JJJJJ',
    'KKKKK-LLLLL',
    'MMMMM-NNNNN',
    'OOOOO-PPPPP',
    'QQQQQ-RRRRR',
    'SSSSS-TTTTT',
  ];

  it('setup → QR as a data: image with alt text and the key in groups of four → first code → enroll → backup codes once → success notice', async () => {
    signedIn({
      'user-mgmt/user/mfa/totp/setup': { status: 200, data: SETUP },
      'user-mgmt/user/mfa/totp/enroll': { status: 200, data: { mfaEnrollmentStatus: 'ENROLLED', backupCodes: BACKUP_CODES } },
    });
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderPortal(`${BASE}mfa-setup`);
    fireEvent.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    const qr = await screen.findByRole<HTMLImageElement>('img', { name: 'QR code for adding your account to an authenticator app' });
    expect(qr.getAttribute('src')).toBe(`data:image/svg+xml;base64,${btoa(SETUP.qrSvg)}`);
    expect(screen.getByTestId('totp-key').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP');
    fireEvent.click(screen.getByRole('button', { name: 'Copy key' }));
    await screen.findByText('Key copied');
    expect(writeText).toHaveBeenCalledWith(SETUP.secret);

    fireEvent.change(screen.getByLabelText(/^Passcode/), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-step verification' }));
    // The ten codes, shown once, until the person says they are saved.
    await screen.findByRole('heading', { name: 'Your backup codes' });
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(BACKUP_CODES);
    fireEvent.click(screen.getByRole('button', { name: 'Copy codes' }));
    await screen.findByText('Codes copied');
    expect(writeText).toHaveBeenLastCalledWith(expect.stringContaining(BACKUP_CODES.join('\n')));
    fireEvent.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect((await screen.findByText(/^Two-step verification is on\. Next time/)).closest('[role="status"]')).not.toBeNull();
    expect(screen.queryByText(BACKUP_CODES[0]!)).toBeNull();
    expect(callsTo('user-mgmt/user/mfa/totp/enroll')[0]?.body).toEqual({ code: '123456' });
  });

  it('on a site that requires it (dohabank mfa "required") the set-up says the bank requires it; a site where it is optional does not', async () => {
    signedIn({ 'user-attribute/user/dohabank': { status: 200, data: { userSites: {} } } });
    renderPortal('/dohabank/en_us/account/mfa-setup');
    await screen.findByRole('button', { name: 'Set up an authenticator app' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Set up two-step verification');
    expect(screen.getByText(/^Doha Bank Rewards requires two-step verification for every account\. Set it up to continue/)).toBeTruthy();
    cleanup();
    signedIn({});
    renderPortal(`${BASE}mfa-setup`);
    await screen.findByRole('button', { name: 'Set up an authenticator app' });
    expect(screen.queryByText(/requires two-step verification/)).toBeNull();
  });

  it('a wrong first code (401 OTP_INVALID) is shown on the screen; the user stays signed in', async () => {
    signedIn({
      'user-mgmt/user/mfa/totp/setup': { status: 200, data: SETUP },
      'user-mgmt/user/mfa/totp/enroll': { status: 401, data: { error: 'OTP_INVALID', message: 'wrong' } },
    });
    const { store } = renderPortal(`${BASE}mfa-setup`);
    fireEvent.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    fireEvent.change(await screen.findByLabelText(/^Passcode/), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-step verification' }));
    expect((await screen.findByRole('alert')).textContent).toBe("⚠That passcode isn't correct. Please check it and try again.");
    expect(store.getState().auth.name).toBe('LOGGEDIN');
    expect(goToSignIn).not.toHaveBeenCalled();
  });

  it('an ended session (401 UNAUTHENTICATED) goes to sign-in as §8 says', async () => {
    signedIn({ 'user-mgmt/user/mfa/totp/setup': { status: 401, data: { error: 'UNAUTHENTICATED', message: 'expired' } } });
    const { store } = renderPortal(`${BASE}mfa-setup`);
    fireEvent.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    await waitFor(() => expect(goToSignIn).toHaveBeenCalledWith(true));
    expect(store.getState().auth.name).toBe('LOGGEDOUT');
  });

  it('enrolled: a current code turns it off (unenroll)', async () => {
    signedIn({ 'user-mgmt/user/mfa/totp/unenroll': { status: 200, data: {} } }, { ...PROFILE, mfaEnrollmentStatus: 'ENROLLED' });
    renderPortal(`${BASE}mfa-setup`);
    expect(await screen.findByText('Two-step verification is on for your account.')).toBeTruthy();
    // Once on, the page manages it: heading and tab no longer say "Set up" (SPEC §2 page title).
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Two-step verification');
    await waitFor(() => expect(document.title).toBe('FirstBank Rewards - Two-step verification - Rewards Portal'));
    fireEvent.click(screen.getByRole('button', { name: 'Turn off two-step verification' }));
    fireEvent.change(await screen.findByLabelText(/^Passcode/), { target: { value: '135790' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn off two-step verification' }));
    expect(await screen.findByText('Two-step verification is off.')).toBeTruthy();
    expect(callsTo('user-mgmt/user/mfa/totp/unenroll')[0]?.body).toEqual({ code: '135790' });
  });

  it('enrolled: shows the backup codes left; the phone lost, a backup code turns it off; a malformed one is named next to the field and not sent', async () => {
    signedIn(
      { 'user-mgmt/user/mfa/backup-codes': { status: 200, data: { remaining: 7 } }, 'user-mgmt/user/mfa/totp/unenroll': { status: 200, data: {} } },
      { ...PROFILE, mfaEnrollmentStatus: 'ENROLLED' },
    );
    renderPortal(`${BASE}mfa-setup`);
    expect(await screen.findByText('Backup codes left: 7')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Turn off with a backup code' }));
    const field = await screen.findByLabelText('Backup code');
    fireEvent.change(field, { target: { value: 'abc' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn off with a backup code' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Enter a backup code of 10 letters and digits, like ABCDE-FGH23.');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(callsTo('user-mgmt/user/mfa/totp/unenroll')).toEqual([]);
    fireEvent.change(field, { target: { value: 'abcde-fgh23' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn off with a backup code' }));
    expect(await screen.findByText('Two-step verification is off.')).toBeTruthy();
    expect(callsTo('user-mgmt/user/mfa/totp/unenroll')[0]?.body).toEqual({ backupCode: 'abcde-fgh23' });
  });
});

describe('§4 logout', () => {
  it('revokes, clears otp_expiry and the sign-in marker, tells the mobile bridge, and ends on login-form', async () => {
    signedIn({ 'user-auth/tokens/revoke': { status: 200, data: {}, setCookie: 'gmap_authenticated=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/' } });
    window.localStorage.setItem('otp_expiry', String(Math.floor(Date.now() / 1000) + 600));
    const postMessage = vi.fn();
    (window as { ReactNativeWebView?: unknown }).ReactNativeWebView = { postMessage };
    const { router, store } = renderPortal(`${BASE}logout?isMobile=true`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}login-form`));
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    const [revoke] = callsTo('user-auth/tokens/revoke');
    expect(revoke?.method).toBe('POST');
    expect(revoke?.body).toBeNull();
    expect(window.localStorage.getItem('otp_expiry')).toBeNull();
    expect(document.cookie).not.toContain('gmap_authenticated=true');
    expect(store.getState().auth.name).toBe('LOGGEDOUT');
    expect(postMessage).toHaveBeenCalledWith(JSON.stringify({ type: 'feature', feature: 'logout' }));
  });

  it('a concierge also loses the support-details and user-type cookies', async () => {
    document.cookie = 'gmap_user_type=CONCIERGE; Path=/';
    document.cookie = 'gmap_support_details=agent-7; Path=/';
    answerWith((call) =>
      call.url === 'user-auth/tokens/revoke'
        ? { status: 200, data: {} }
        : call.url === 'user-mgmt/user/find-concierge'
          ? { status: 200, data: PROFILE }
          : signedInAnswers(call),
    );
    const { router } = renderPortal(`${BASE}logout`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}login-form`));
    expect(document.cookie).not.toContain('gmap_support_details');
    expect(document.cookie).not.toContain('gmap_user_type');
  });
});
