import { describe, expect, it, vi } from 'vitest';
import type { AppServices } from '../../../src/app/app-services';
import { performAuthEffect } from '../../../src/auth/auth-effects';

/** The auth machine's effects that touch the browser (§4, §8, §9 storage names). */
function fakeServices() {
  const removedCookies: string[] = [];
  const setCookies: [string, string, Date][] = [];
  const removedKeys: string[] = [];
  const services: AppServices = {
    cookies: {
      get: () => undefined,
      set: (name, value, expires) => void setCookies.push([name, value, expires]),
      remove: (name) => void removedCookies.push(name),
    },
    localStore: { get: () => null, set: () => undefined, remove: (key) => void removedKeys.push(key) },
    goToSignIn: vi.fn(),
  };
  return { services, removedCookies, setCookies, removedKeys };
}
const noDispatch = vi.fn();

describe('auth effects', () => {
  it('§8: clearing the session cookies, plus gmap_support_details for a concierge', async () => {
    const cardholder = fakeServices();
    await performAuthEffect({ type: 'CLEAR_SESSION_COOKIES', concierge: false }, noDispatch, cardholder.services);
    expect(cardholder.removedCookies).toEqual(['gmap_authenticated', 'session']);
    const concierge = fakeServices();
    await performAuthEffect({ type: 'CLEAR_SESSION_COOKIES', concierge: true }, noDispatch, concierge.services);
    expect(concierge.removedCookies).toEqual(['gmap_authenticated', 'session', 'gmap_support_details']);
  });

  it('§4: the user type cookie expires at the token exp (seconds)', async () => {
    const { services, setCookies } = fakeServices();
    await performAuthEffect({ type: 'STORE_USER_TYPE', userType: 'CONCIERGE', expiresAt: 1_900_000_000 }, noDispatch, services);
    expect(setCookies).toEqual([['gmap_user_type', 'CONCIERGE', new Date(1_900_000_000_000)]]);
  });

  it('§4: a failed refresh removes the refresh token; a refresh without one fails at once', async () => {
    const { services, removedKeys } = fakeServices();
    expect(await performAuthEffect({ type: 'REMOVE_REFRESH_TOKEN' }, noDispatch, services)).toBeNull();
    expect(removedKeys).toEqual(['refresh_token']);
    expect(await performAuthEffect({ type: 'REFRESH_TOKEN', siteId: 'firstbank' }, noDispatch, services)).toEqual({
      type: 'REFRESH_FAILED',
      siteId: 'firstbank',
    });
    expect(noDispatch).not.toHaveBeenCalled();
  });

  it('§4: going to the sign-in route passes the reload decision on', async () => {
    const { services } = fakeServices();
    await performAuthEffect({ type: 'GO_TO_SIGN_IN', reload: false }, noDispatch, services);
    expect(services.goToSignIn).toHaveBeenCalledWith(false);
  });
});
