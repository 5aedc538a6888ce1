import { render } from '@testing-library/react';
import { AxiosError, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { createPortalRouter } from '../../../../src/App';
import { gatewayHttp } from '../../../../src/api/gateway-api';
import type { AppServices } from '../../../../src/app/app-services';
import { documentCookieJar } from '../../../../src/app/browser-cookies';
import { browserLocalStorage } from '../../../../src/app/browser-storage';
import { createStore, type AppStore } from '../../../../src/store';
import enUs from '../../../../fixtures/content/en_us.json';
import bancosol from '../../../../fixtures/sites/bancosol.json';
import dohabank from '../../../../fixtures/sites/dohabank.json';
import eurobank from '../../../../fixtures/sites/eurobank.json';
import firstbank from '../../../../fixtures/sites/firstbank.json';
import sabana from '../../../../fixtures/sites/sabana.json';

/**
 * The whole portal (real router, store, loaders, screens) over a fake gateway: an axios adapter
 * that records every call and answers from the test's handler, else from the fixtures (site
 * configuration, en_us content), else NOT_IMPLEMENTED. The same pattern as RootScreen.test.tsx.
 */
export type Answer = { status: number; data?: unknown; headers?: Record<string, string>; setCookie?: string };

export interface SentCall {
  method: string;
  url: string;
  params: unknown;
  /** A multipart body as an object of its parts; a JSON body parsed; else as sent. */
  body: unknown;
  headers: Record<string, string>;
}

const SITES: Record<string, unknown> = { bancosol, dohabank, eurobank, firstbank, sabana };
const CONTENT = enUs as Record<string, Record<string, string>>;

export const sent: SentCall[] = [];
let handler: (call: SentCall) => Answer | undefined = () => undefined;

function bodyOf(data: unknown): unknown {
  if (data instanceof FormData) return Object.fromEntries([...data.entries()].map(([name, value]) => [name, String(value)]));
  if (typeof data === 'string') {
    try {
      return JSON.parse(data) as unknown;
    } catch {
      return data;
    }
  }
  return data;
}

const fakeGateway: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
  const url = String(config.url);
  const call: SentCall = {
    method: (config.method ?? 'get').toUpperCase(),
    url,
    params: config.params,
    body: bodyOf(config.data),
    headers: Object.fromEntries(Object.entries(config.headers.toJSON()).map(([name, value]) => [name.toLowerCase(), String(value)])),
  };
  sent.push(call);
  const answer: Answer =
    handler(call) ??
    (url.startsWith('site-config-service/config/site/')
      ? { status: 200, data: SITES[url.split('/').pop() ?? ''] ?? firstbank }
      : url === 'bin/aem/rest'
        ? { status: 200, data: { content: CONTENT[(config.params as { contentType: string }).contentType] ?? {} } }
        : url.startsWith('/offers')
          ? { status: 200, data: [] }
          : { status: 501, data: { error: 'NOT_IMPLEMENTED', message: 'not in this test' } });
  // The gateway's Set-Cookie, as the browser would apply it.
  if (answer.setCookie) document.cookie = answer.setCookie;
  const response = { data: answer.data, status: answer.status, statusText: '', headers: answer.headers ?? {}, config, request: {} };
  if (answer.status >= 400) throw new AxiosError('failed', 'ERR_BAD_RESPONSE', config, {}, response);
  return response;
};

export function answerWith(next: (call: SentCall) => Answer | undefined): void {
  handler = next;
}

export function callsTo(url: string): SentCall[] {
  return sent.filter((call) => call.url === url);
}

export const goToSignIn = vi.fn();

export function renderPortal(path: string, prepare: (store: AppStore) => void = () => undefined) {
  gatewayHttp.defaults.adapter = fakeGateway;
  window.history.replaceState(null, '', path);
  const services: AppServices = { cookies: documentCookieJar(), localStore: browserLocalStorage(), goToSignIn };
  const store = createStore(services);
  prepare(store);
  const router = createPortalRouter(store, services);
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { store, router };
}

export function resetFakePortal(): void {
  sent.length = 0;
  handler = () => undefined;
  goToSignIn.mockReset();
  for (const name of ['gmap_authenticated', 'gmap_user_type', 'gmap_support_details'])
    document.cookie = `${name}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/`;
  window.sessionStorage.clear();
  window.localStorage.clear();
}

/** A signed-in, active card holder (§4: authenticated cookie and a passing background check). */
export const PROFILE = {
  dob: '1988-04-12',
  email: 'emily.carter@example.com',
  firstName: 'Emily',
  lastName: 'Carter',
  title: 'Ms',
  userAccountStatus: 'ACTIVE',
  primaryUserIdentifier: 'emily.carter@example.com',
  mfaEnrollmentStatus: 'NOT_ENROLLED',
};

export function signedInAnswers(call: SentCall, profile: typeof PROFILE = PROFILE): Answer | undefined {
  if (call.url.startsWith('user-attribute/user/background/')) return { status: 200, data: { passesBackgroundCheck: true } };
  if (call.url === 'user-mgmt/user/find') return { status: 200, data: profile };
  if (call.url.startsWith('user-attribute/user/assets/')) return { status: 200, data: [] };
  if (call.url.startsWith('user-attribute/user/')) return { status: 200, data: { userSites: {} } };
  return undefined;
}

export function signInTheBrowser(): void {
  document.cookie = 'gmap_authenticated=true; Path=/';
}
