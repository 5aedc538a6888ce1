/**
 * The app's server build (`vite build --ssr`, docs/decisions/0024-first-paint-from-the-server.md): renders a
 * page's first screen with the same routes, loaders and store the browser runs, reaching the gateway's API
 * in-process through `request.gateway`. The gateway loads the built file; it never imports this source.
 */
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { Provider } from 'react-redux';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import axios, { AxiosError, type AxiosAdapter, type AxiosResponse } from 'axios';
import type { DocumentHead, RenderPage, ServerPageAnswer, ServerPageRequest } from '../../schemas/pages/server-page';
import { portalRoutes } from '../App';
import type { TokenStorage } from '../app/browser-storage';
import type { AppServices } from '../app/app-services';
import { cookieInHeader, type CookieJar } from '../app/browser-cookies';
import { cacheForPage } from '../app/server-page-state';
import { ServerPageProvider, type ServerPageContextValue } from '../app/page-context';
import type { AccountRoute } from '../app/route-names';
import { authCheckRequested } from '../auth/session-steps';
import { resolveSite } from '../site/resolve-site';
import { createStore } from '../store';
import { authCheckInputsOf, PERSONAL_SERVER_ROUTES, SERVER_RENDERED_ROUTES, type ServerPageData } from './server-page-data';

/** A page the server could not finish in this time is left to the browser: a slow API never holds the first byte. */
const RENDER_DEADLINE_MS = 4_000;

/** The request's cookies, read-only: what the server's store removes is told to the browser (ServerPageData). */
function requestCookieJar(header: string, removed: Set<string>): CookieJar {
  return {
    get: (name) => (removed.has(name) ? undefined : cookieInHeader(header, name)),
    set: () => undefined,
    remove: (name) => {
      if (cookieInHeader(header, name) !== undefined) removed.add(name);
    },
  };
}

/** Local storage as a fresh browser has it: empty. Removals are told to the browser (a decision like §4 otp_expiry's). */
function memoryStorage(removed: Set<string>): TokenStorage {
  const values = new Map<string, string>();
  return {
    get: (key) => values.get(key) ?? null,
    set: (key, value) => void values.set(key, value),
    remove: (key) => {
      values.delete(key);
      removed.add(key);
    },
  };
}

function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** Axios without a network: the request goes to the gateway's own routes (ServerPageRequest.gateway). */
function gatewayAdapter(request: ServerPageRequest, origin: string): AxiosAdapter {
  return async (config) => {
    const target = new URL(axios.getUri(config), origin);
    const headers: Record<string, string> = { cookie: request.cookie, 'user-agent': request.userAgent };
    for (const [name, value] of Object.entries(config.headers.toJSON())) {
      const text = headerText(value);
      if (text !== undefined) headers[name.toLowerCase()] = text;
    }
    const body = typeof config.data === 'string' ? config.data : undefined;
    const answer = await request.gateway({ method: (config.method ?? 'get').toUpperCase(), url: `${target.pathname}${target.search}`, headers, body });
    const response: AxiosResponse = { data: answer.body, status: answer.status, statusText: '', headers: answer.headers, config, request: {} };
    if (config.validateStatus?.(answer.status) ?? (answer.status >= 200 && answer.status < 300)) return response;
    const code = answer.status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST;
    throw new AxiosError(`Request failed with status code ${String(answer.status)}`, code, config, {}, response);
  };
}

/** Stops a loader that wanted to leave the portal (§2 mobile deep link): that page is the browser's to run. */
class BrowserOnlyStep extends Error {}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T | 'timed-out'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<'timed-out'>((resolve) => {
    timer = setTimeout(() => resolve('timed-out'), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

async function render(request: ServerPageRequest): Promise<ServerPageAnswer> {
  const url = new URL(request.url);
  const site = resolveSite({ host: url.host, pathname: url.pathname, search: url.search });
  if (site.route === null || !SERVER_RENDERED_ROUTES.has(site.route)) return { kind: 'client-rendered', reason: 'route' };

  const removedCookies = new Set<string>();
  const removedStorage = new Set<string>();
  const cookies = requestCookieJar(request.cookie, removedCookies);
  const localStore = memoryStorage(removedStorage);
  // The check the browser would start with, before anything ran: the browser hydrates only when its own is the same.
  const authCheck = authCheckInputsOf(authCheckRequested(site, cookies, localStore));
  const services: AppServices = {
    cookies,
    localStore,
    captcha: { token: () => Promise.reject(new Error('the server renderer submits no form')) },
    goToSignIn: () => undefined,
    userAgent: () => request.userAgent,
    openApp: () => {
      throw new BrowserOnlyStep('open-app');
    },
    gatewayClient: {
      http: axios.create({ adapter: gatewayAdapter(request, url.origin) }),
      cookies,
      tokens: localStore,
    },
  };
  const store = createStore(services, () => url.pathname);
  const handler = createStaticHandler(portalRoutes(store, services));
  // The loaders read the visitor's cookies and user agent from `services`, as in the browser.
  const context = await handler.query(new Request(url));
  if (context instanceof Response) {
    const location = context.headers.get('location');
    if (context.status >= 300 && context.status < 400 && location !== null) return { kind: 'redirect', status: context.status, location };
    return { kind: 'client-rendered', reason: `loader answered ${String(context.status)}` };
  }
  if (context.errors !== null) return { kind: 'client-rendered', reason: 'a loader failed' };

  const auth = store.getState().auth;
  const signedIn = auth.name !== 'LOGGEDOUT';
  // A signed-in visitor's pages are rendered on the server only where the page is theirs to see whole (ADR 0024).
  if (signedIn && !(PERSONAL_SERVER_ROUTES as readonly AccountRoute[]).includes(site.route)) return { kind: 'client-rendered', reason: 'signed in' };

  const page: ServerPageContextValue = { origin: url.origin, host: url.host, head: {} };
  const router = createStaticRouter(handler.dataRoutes, context);
  const { prelude } = await prerender(
    <StrictMode>
      <ServerPageProvider value={page}>
        <Provider store={store}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </Provider>
      </ServerPageProvider>
    </StrictMode>,
    // Every finished boundary inline: React outlines a large one behind an inline script, which the strict CSP refuses.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const html = await new Response(prelude).text();
  // Never an inline script in the page (DESIGN "Quality bars"): such a page is the browser's to render.
  if (html.includes('<script')) return { kind: 'client-rendered', reason: 'render failed: inline script' };
  const { gatewayApi, ...slices } = store.getState();
  const data: ServerPageData = {
    store: { gatewayApi: cacheForPage(gatewayApi), slices },
    router: { loaderData: context.loaderData, actionData: context.actionData },
    authCheck,
    browserEffects: { removedCookies: [...removedCookies], removedStorage: [...removedStorage] },
  };
  // Personal when it drew a signed-in screen; the gateway also treats every request with a session cookie as personal.
  return { kind: 'page', html, data, head: page.head as DocumentHead, personal: signedIn };
}

/** The gateway's entry into the server build: never throws, a page it cannot render is the browser's. */
export const renderPage: RenderPage = async (request) => {
  try {
    const answer = await withDeadline(render(request), RENDER_DEADLINE_MS);
    return answer === 'timed-out' ? { kind: 'client-rendered', reason: 'deadline' } : answer;
  } catch (error) {
    if (error instanceof BrowserOnlyStep) return { kind: 'client-rendered', reason: error.message };
    // The error's kind only: its message could quote what the visitor sent, and logs never carry that.
    return { kind: 'client-rendered', reason: `render failed: ${error instanceof Error ? error.name : typeof error}` };
  }
};
