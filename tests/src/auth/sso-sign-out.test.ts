// @vitest-environment jsdom
import { AxiosError, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gatewayHttp } from '../../../src/api/gateway-api';
import { documentCookieJar } from '../../../src/app/browser-cookies';
import { browserLocalStorage } from '../../../src/app/browser-storage';
import { signOut, type SessionDeps } from '../../../src/auth/session-steps';
import { createStore } from '../../../src/store';

/** SPEC §7 "OIDC variant POST {app base}/logout": the sign-out of an SSO site, with only the network faked. */
const calls: { url: string; method: string; params: unknown }[] = [];
let logoutAnswer: { status: number; data: unknown };

const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
  const url = String(config.url);
  calls.push({ url, method: String(config.method).toUpperCase(), params: config.params });
  const answer =
    url === 'logout'
      ? logoutAnswer
      : url === 'user-auth/tokens/revoke'
        ? { status: 200, data: { revoked: true } }
        : { status: 404, data: { error: 'NOT_FOUND', message: 'no' } };
  const response = { data: answer.data, status: answer.status, statusText: '', headers: {}, config, request: {} };
  if (answer.status >= 400) throw new AxiosError('failed', 'ERR_BAD_RESPONSE', config, {}, response);
  return response;
};

function deps(): SessionDeps {
  const cookies = documentCookieJar();
  const localStore = browserLocalStorage();
  const store = createStore({ cookies, localStore, goToSignIn: () => undefined });
  return { dispatch: store.dispatch, cookies, localStore, flags: { sessionExtension: false }, now: () => Date.now() };
}

const SITE = { siteId: 'unionbank', locale: 'en_us' };

beforeEach(() => {
  gatewayHttp.defaults.adapter = adapter;
  calls.length = 0;
  logoutAnswer = { status: 200, data: { revoked: true, endSessionUrl: '/test-idp/logout?client_id=unionbank-rewards-portal' } };
});
afterEach(() => window.localStorage.clear());

describe('signOut on an SSO site', () => {
  it("posts {gateway base}/logout (not tokens/revoke) with the refresh token, and answers the provider's end-session URL", async () => {
    window.localStorage.setItem('refresh_token', 'r-1');
    const url = await signOut(deps(), SITE, 'CARDHOLDER', 'logout', true);
    expect(url).toBe('/test-idp/logout?client_id=unionbank-rewards-portal');
    expect(calls.filter((call) => call.method === 'POST').map((call) => [call.url, call.params])).toEqual([['logout', { refresh_token: 'r-1' }]]);
    expect(window.localStorage.getItem('refresh_token')).toBeNull();
  });

  it('a failed logout call still signs the browser out, with nowhere else to go', async () => {
    logoutAnswer = { status: 502, data: { error: 'BAD_GATEWAY', message: 'down' } };
    expect(await signOut(deps(), SITE, 'CARDHOLDER', 'logout', true)).toBeNull();
  });

  it('a site without SSO revokes as before and has no end-session URL', async () => {
    expect(await signOut(deps(), { siteId: 'firstbank', locale: 'en_us' }, 'CARDHOLDER')).toBeNull();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.url)).toEqual(['user-auth/tokens/revoke']);
  });
});
