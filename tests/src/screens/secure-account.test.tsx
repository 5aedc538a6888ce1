// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerWith, callsTo, renderPortal, resetFakePortal, signedInAnswers, signInTheBrowser, type Answer, type SentCall } from './support/fake-portal';

/**
 * ADR 0021 "Telling the holder", "this wasn't me": the secure-account page of an account notice's link. Loading it
 * posts nothing (mail scanners fetch links); its one button posts the token once, then the holder is signed out here
 * and goes on to the password reset with the address filled in. A bad link says so and offers the reset.
 */
beforeEach(resetFakePortal);
afterEach(cleanup);

const TOKEN = 'kX3v9QeR2mT7yB1nL5pZ8wC4dF6gH0jK2sA9uE3iO7q';
const SECURE = 'user-mgmt/user/secure-account';

function secureAnswers(answer: Answer) {
  return (call: SentCall): Answer | undefined => (call.url === SECURE ? answer : signedInAnswers(call));
}

const secureButton = () => screen.findByRole('button', { name: 'Secure my account' });

describe('secure-account (ADR 0021)', () => {
  it('shows what securing does and posts nothing until the button is pressed', async () => {
    answerWith(secureAnswers({ status: 200, data: { status: 'ACCOUNT_SECURED', email: 'emily.carter@example.com', undone: [] } }));
    renderPortal(`/firstbank/en_us/account/secure-account?token=${TOKEN}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Secure your account' })).toBeTruthy();
    expect(await secureButton()).toBeTruthy();
    expect(screen.getByText("If you didn't make the change we wrote to you about, secure your account now. This:")).toBeTruthy();
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'signs your account out on every device, this one too',
      'stops trusting every device that skipped the passcode',
      'puts back a phone number changed in the last 7 days, and removes an authenticator app added in the last 7 days; your other details, cards and settings stay as they are',
    ]);
    expect(callsTo(SECURE)).toHaveLength(0);
  });

  it('the button posts the token once, forgets this browser’s session and leads to the password reset with the address filled in; the token is left behind', async () => {
    signInTheBrowser();
    answerWith(secureAnswers({ status: 200, data: { status: 'ACCOUNT_SECURED', email: 'emily.carter@example.com', undone: [] } }));
    const { router } = renderPortal(`/firstbank/en_us/account/secure-account?token=${TOKEN}&siteid=firstbank`);
    fireEvent.click(await secureButton());
    await waitFor(() => expect(router.state.location.pathname).toBe('/firstbank/en_us/account/recovery'));
    expect(router.state.location.search).toBe('?siteid=firstbank');
    expect(callsTo(SECURE).map((call) => call.body)).toEqual([{ token: TOKEN }]);
    expect(await screen.findByText('Your account is signed out on every device. Now choose a new password.')).toBeTruthy();
    expect((await screen.findByLabelText<HTMLInputElement>(/^Email address/)).value).toBe('emily.carter@example.com');
    expect(document.cookie).not.toContain('gmap_authenticated');
    expect(window.location.href).not.toContain(TOKEN);
    expect(window.localStorage.length + window.sessionStorage.length).toBe(0);
  });

  it('a link texted to a phone: the reset starts with an empty address', async () => {
    answerWith(secureAnswers({ status: 200, data: { status: 'ACCOUNT_SECURED', email: null } }));
    const { router } = renderPortal(`/firstbank/en_us/account/secure-account?token=${TOKEN}`);
    fireEvent.click(await secureButton());
    await waitFor(() => expect(router.state.location.pathname).toBe('/firstbank/en_us/account/recovery'));
    expect((await screen.findByLabelText<HTMLInputElement>(/^Email address/)).value).toBe('');
  });

  it('an unknown, used or expired link says so, stays, and offers the password reset', async () => {
    answerWith(secureAnswers({ status: 400, data: { error: 'SECURE_ACCOUNT_LINK_INVALID', message: 'x', fields: { token: 'invalid' } } }));
    const { router } = renderPortal(`/firstbank/en_us/account/secure-account?token=${TOKEN}`);
    fireEvent.click(await secureButton());
    expect((await screen.findByRole('alert')).textContent).toBe("⚠This link isn't valid, has already been used or has expired.");
    expect(screen.getByRole('link', { name: 'Reset your password' }).getAttribute('href')).toBe('/firstbank/en_us/account/recovery');
    expect(screen.queryByRole('button', { name: 'Secure my account' })).toBeNull();
    expect(router.state.location.pathname).toBe('/firstbank/en_us/account/secure-account');
  });

  it('a link without a token is invalid at once, and nothing is posted', async () => {
    renderPortal('/firstbank/en_us/account/secure-account');
    expect((await screen.findByRole('alert')).textContent).toBe("⚠This link isn't valid, has already been used or has expired.");
    expect(callsTo(SECURE)).toHaveLength(0);
  });

  it.each([
    [{ status: 503, data: { error: 'SERVICE_UNAVAILABLE', message: 'x' } }, 'An unexpected error occurred.'],
    [
      { status: 429, data: { error: 'RATE_LIMITED', message: 'x' }, headers: { 'retry-after': '600' } },
      'Too many requests. Please wait 10 minutes and try again.',
    ],
  ] as const)('any other refusal (%o) is said, and the button stays for another try', async (answer, text) => {
    answerWith(secureAnswers(answer));
    const { router } = renderPortal(`/firstbank/en_us/account/secure-account?token=${TOKEN}`);
    fireEvent.click(await secureButton());
    await waitFor(() => expect(callsTo(SECURE)).toHaveLength(1));
    expect((await screen.findByRole('alert')).textContent).toBe(`⚠${text}`);
    expect(await secureButton()).toBeTruthy();
    expect(router.state.location.pathname).toBe('/firstbank/en_us/account/secure-account');
  });
});
