// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerWith, PROFILE, renderPortal, resetFakePortal, signedInAnswers, signInTheBrowser, type SentCall } from './support/fake-portal';

/** SPEC §2's "Back" breadcrumb: no account screen is a dead end, and it never points where the guards would not let the person in. */
function signedIn(siteId: string, profile = PROFILE) {
  answerWith((call: SentCall) => (call.url === `user-attribute/user/${siteId}` ? { status: 200, data: { userSites: {} } } : signedInAnswers(call, profile)));
}

beforeEach(() => {
  resetFakePortal();
  signInTheBrowser();
});
afterEach(cleanup);

describe('Back breadcrumb', () => {
  it.each(['edit-pan', 'password', 'site-settings', 'mfa-setup', 'delete-profile', 'cashback-statement', 'otp-check-preference'])(
    '%s has a Back link that leads to the profile',
    async (route) => {
      signedIn('firstbank');
      const { router } = renderPortal(`/firstbank/en_us/account/${route}`);
      const crumb = await screen.findByRole('navigation', { name: 'Breadcrumb' });
      fireEvent.click(within(crumb).getByRole('link', { name: 'Back' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/firstbank/en_us/account/profile'));
    },
  );

  it('is absent from a required authenticator set-up, where the profile is not open yet (dohabank mfa "required")', async () => {
    signedIn('dohabank');
    renderPortal('/dohabank/en_us/account/mfa-setup');
    await screen.findByRole('navigation', { name: 'Your account' });
    expect(screen.queryByRole('navigation', { name: 'Breadcrumb' })).toBeNull();
  });
});
