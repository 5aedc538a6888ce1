import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import axios, { type AxiosError, type AxiosInstance, type AxiosRequestConfig } from 'axios';
import type { ErrorBody } from '../../schemas/api/error-body';
import type { PREAUTH_TOKEN_ANSWER } from '../../schemas/api/response-schemas';
import type { SchemaType } from '../../schemas/api/schema-type';
import { documentCookieJar, type CookieJar } from '../app/browser-cookies';
import { browserLocalStorage, type TokenStorage } from '../app/browser-storage';
import { FEATURE_FLAGS, type FeatureFlags } from '../app/feature-flags';
import { STORAGE, XSRF_COOKIE } from '../app/storage-names';
import { serverCacheReceived } from '../app/server-page-state';
import { gatewayResponded } from './gateway-events';
import { CORRELATION_ID_HEADER, gatewayBaseUrl, gatewayRequestHeaders, needsToken, PRE_AUTH_TOKEN_URL } from './gateway-request-headers';

/**
 * The one RTK Query api for the gateway (SPEC §7). Each service injects its endpoints
 * (site-config-api, content-api, user-auth-api, user-mgmt-api, user-attribute-api, cards-api,
 * offers-api); the one base query below owns every header rule of §7.
 */
export interface GatewayRequest {
  /** Relative to the gateway base (`site-config-service/…`), or a page-root path starting with `/` (`/offersdata/…`). */
  url: string;
  method?: AxiosRequestConfig['method'];
  params?: Record<string, string | number | boolean>;
  data?: unknown;
  headers?: Record<string, string>;
  siteId: string;
  /** §7: ask the captcha provider for a token, sent as X-HCAPTCHA-TOKEN ('' when it fails). */
  captcha?: boolean;
  /** The caller turns a 401 into its own state (§4 background check), so §8's redirect to login is not applied. */
  ownsAuthFailure?: boolean;
}

/** The gateway's error shape (`ErrorBody`, DESIGN "Contracts") as the app holds it, with the status and the X-CID of the answer. */
export interface GatewayError {
  status: number;
  code: string;
  message: string;
  correlationId: string | null;
  /** Per-field error keys of a VALIDATION_FAILED answer. */
  fields?: Record<string, string>;
  /** The answer's Retry-After header in seconds (423 locks, 429 limits; ADR 0008). */
  retryAfterSeconds?: number;
  /** Extras of the error body besides error, message and fields (ADR 0008: attemptsLeft, maskedDestination). */
  details?: Readonly<Record<string, unknown>>;
}

/** §7 "A captcha token is requested": hCaptcha, or the offline provider in development and tests (ADR 0013). */
export interface CaptchaProvider {
  token(): Promise<string>;
}

export interface GatewayClientDeps {
  http: AxiosInstance;
  flags: Readonly<FeatureFlags>;
  cookies: CookieJar;
  tokens: TokenStorage;
  captcha: () => CaptchaProvider;
  /** §7 "unless disabled": fetch a pre-auth token when a listed endpoint has none. */
  preAuth: { enabled: boolean; url: string; clientId: string; clientSecret: string };
}

const NO_CAPTCHA: CaptchaProvider = { token: () => Promise.reject(new Error('no captcha provider installed')) };
let installedCaptcha: CaptchaProvider = NO_CAPTCHA;
/** The store installs the captcha provider here: hCaptcha or the offline one (ADR 0013). */
export function installCaptchaProvider(provider: CaptchaProvider): void {
  installedCaptcha = provider;
}

/** Retry-After as seconds; only the delta-seconds form (the gateway's), anything else is ignored. */
function retryAfterSecondsOf(header: unknown): number | undefined {
  const value = typeof header === 'string' || typeof header === 'number' ? String(header).trim() : '';
  return /^\d{1,9}$/.test(value) ? Number(value) : undefined;
}

function toGatewayError(caught: unknown): GatewayError {
  const error = caught as AxiosError<Partial<ErrorBody> | null | undefined>;
  const status = error.response?.status ?? 0;
  const body = typeof error.response?.data === 'object' && error.response.data !== null ? error.response.data : undefined;
  const headers: Partial<Record<string, unknown>> | undefined = error.response?.headers;
  const header = headers?.[CORRELATION_ID_HEADER.toLowerCase()];
  const retryAfterSeconds = retryAfterSecondsOf(headers?.['retry-after']);
  const { error: _code, message: _message, fields, ...details } = body ?? {};
  return {
    status,
    code: body?.error ?? (status === 0 ? 'NETWORK_ERROR' : 'HTTP_ERROR'),
    message: body?.message ?? error.message,
    correlationId: typeof header === 'string' ? header : null,
    ...(fields !== undefined && typeof fields === 'object' ? { fields } : {}),
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    ...(Object.keys(details).length > 0 ? { details } : {}),
  };
}

/**
 * What a store gives its base query in place of the browser's (ADR 0024): the server renderer's store
 * reaches the gateway in-process with the page request's cookies, and keeps tokens in memory.
 */
export type GatewayClientOverrides = Partial<Pick<GatewayClientDeps, 'http' | 'cookies' | 'tokens'>>;

/** The store's thunk extra argument (store.ts): where a store's own gateway client is found. */
export interface GatewayThunkExtra {
  gatewayClient?: GatewayClientOverrides;
}

function clientOverridesOf(extra: unknown): GatewayClientOverrides {
  return typeof extra === 'object' && extra !== null ? ((extra as GatewayThunkExtra).gatewayClient ?? {}) : {};
}

export function createGatewayBaseQuery(defaults: GatewayClientDeps): BaseQueryFn<GatewayRequest, unknown, GatewayError> {
  // §7/§8: learned from error responses, sent on login. One per store (its thunk extra), not per module: the server
  // renderer runs a store per visitor's page (ADR 0024).
  const learnedCorrelationIds = new WeakMap<object, string>();

  /** §7: the access token, else the pre-auth token, else a pre-auth token fetched now (cleared on failure). */
  async function bearerTokenFor(deps: GatewayClientDeps, url: string): Promise<string | null> {
    if (!needsToken(url, deps.flags)) return null;
    const stored = deps.tokens.get(STORAGE.accessToken) ?? deps.tokens.get(STORAGE.preAuthToken);
    if (stored !== null || !deps.preAuth.enabled) return stored;
    try {
      const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: deps.preAuth.clientId, client_secret: deps.preAuth.clientSecret });
      const response = await deps.http.request<SchemaType<typeof PREAUTH_TOKEN_ANSWER>>({
        baseURL: gatewayBaseUrl(deps.flags),
        url: deps.preAuth.url,
        method: 'POST',
        data: form,
        withCredentials: true,
        headers: { 'Cache-Control': 'no-cache' },
      });
      deps.tokens.set(STORAGE.preAuthToken, response.data.access_token);
      return response.data.access_token;
    } catch {
      deps.tokens.remove(STORAGE.preAuthToken);
      return null;
    }
  }

  return async (request, api) => {
    const deps: GatewayClientDeps = { ...defaults, ...clientOverridesOf(api.extra) };
    const learnedBy = typeof api.extra === 'object' && api.extra !== null ? api.extra : defaults;
    const ownsAuthFailure = request.ownsAuthFailure === true;
    const captchaToken =
      request.captcha && deps.flags.hcaptcha
        ? await deps
            .captcha()
            .token()
            .catch(() => '')
        : null;
    const headers = gatewayRequestHeaders({
      url: request.url,
      siteId: request.siteId,
      xsrfToken: deps.cookies.get(XSRF_COOKIE),
      learnedCorrelationId: learnedCorrelationIds.get(learnedBy) ?? null,
      bearerToken: await bearerTokenFor(deps, request.url),
      captchaToken,
      flags: deps.flags,
    });
    try {
      const response = await deps.http.request({
        baseURL: request.url.startsWith('/') ? '' : gatewayBaseUrl(deps.flags),
        url: request.url,
        method: request.method ?? 'GET',
        params: request.params,
        data: request.data,
        headers: { ...request.headers, ...headers },
      });
      const correlationId: unknown = response.headers[CORRELATION_ID_HEADER.toLowerCase()];
      api.dispatch(
        gatewayResponded({
          url: request.url,
          status: response.status,
          code: null,
          message: null,
          correlationId: typeof correlationId === 'string' ? correlationId : null,
          ownsAuthFailure,
        }),
      );
      return { data: response.data };
    } catch (caught) {
      const error = toGatewayError(caught);
      if (error.correlationId !== null) learnedCorrelationIds.set(learnedBy, error.correlationId);
      api.dispatch(
        gatewayResponded({
          url: request.url,
          status: error.status,
          code: error.code,
          message: error.message,
          correlationId: error.correlationId,
          ownsAuthFailure,
          ...(typeof error.details?.sessionEnded === 'string' ? { sessionEnded: error.details.sessionEnded } : {}),
        }),
      );
      return { error };
    }
  };
}

/**
 * The browser's axios instance. Axios's own XSRF echo is off: the header rule above owns it, so
 * there is one place that decides. Cookies go with every same-origin call.
 */
export function createGatewayHttp(): AxiosInstance {
  return axios.create({ timeout: 15_000, withCredentials: true, withXSRFToken: false });
}

/** The browser's one HTTP client for the gateway; tests give it a fake adapter. */
export const gatewayHttp = createGatewayHttp();

export const gatewayApi = createApi({
  reducerPath: 'gatewayApi',
  baseQuery: createGatewayBaseQuery({
    http: gatewayHttp,
    flags: FEATURE_FLAGS,
    cookies: documentCookieJar(),
    tokens: browserLocalStorage(),
    captcha: () => installedCaptcha,
    preAuth: { enabled: true, url: PRE_AUTH_TOKEN_URL, clientId: 'cardholder-portal', clientSecret: '' },
  }),
  // ADR 0024: the browser starts from the cache the server renderer filled, so no call is repeated after load.
  extractRehydrationInfo: (action) => (serverCacheReceived.match(action) ? (action.payload as never) : undefined),
  tagTypes: ['SiteConfig', 'Content', 'Profile', 'UserAttributes', 'Cards', 'OfferCategories', 'AuthState', 'BackupCodes'],
  endpoints: () => ({}),
});
