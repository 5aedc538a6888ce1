import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import axios, { AxiosError, AxiosHeaders, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import { describe, expect, it } from 'vitest';
import { createGatewayBaseQuery, type CaptchaProvider, type GatewayClientDeps, type GatewayRequest } from '../../../src/api/gateway-api';
import type { GatewayOutcome } from '../../../src/api/gateway-events';
import { needsToken } from '../../../src/api/gateway-request-headers';
import { FEATURE_FLAGS, type FeatureFlags } from '../../../src/app/feature-flags';

/**
 * SPEC §7 header rules, asserted on what reaches a fake axios adapter: the one base query is
 * exercised as the app runs it, with cookies, stored tokens and the captcha as inputs.
 */
interface Sent {
  url: string;
  headers: Record<string, string>;
}

type Answer = { status: number; data?: unknown; headers?: Record<string, string> };

function harness(
  options: {
    flags?: Partial<FeatureFlags>;
    cookies?: Record<string, string>;
    tokens?: Record<string, string>;
    captcha?: CaptchaProvider;
    answer?: (config: InternalAxiosRequestConfig) => Answer;
    preAuthEnabled?: boolean;
  } = {},
) {
  const sent: Sent[] = [];
  const outcomes: GatewayOutcome[] = [];
  const tokens = new Map(Object.entries(options.tokens ?? {}));
  const adapter: AxiosAdapter = async (config) => {
    const headers = Object.fromEntries(Object.entries(AxiosHeaders.from(config.headers).toJSON()).map(([name, value]) => [name.toLowerCase(), String(value)]));
    sent.push({ url: axios.getUri(config), headers });
    const answer = options.answer?.(config) ?? { status: 200, data: {} };
    const response = { data: answer.data ?? {}, status: answer.status, statusText: '', headers: answer.headers ?? {}, config, request: {} };
    if (answer.status >= 400) throw new AxiosError('failed', 'ERR_BAD_RESPONSE', config, {}, response);
    return response;
  };
  const deps: GatewayClientDeps = {
    http: axios.create({ adapter }),
    flags: { ...FEATURE_FLAGS, ...options.flags },
    cookies: { get: (name) => options.cookies?.[name], set: () => undefined, remove: () => undefined },
    tokens: { get: (key) => tokens.get(key) ?? null, set: (key, value) => void tokens.set(key, value), remove: (key) => void tokens.delete(key) },
    captcha: () => options.captcha ?? { token: () => Promise.reject(new Error('no captcha')) },
    preAuth: { enabled: options.preAuthEnabled ?? true, url: 'user-auth/oauth/token?preauth=true', clientId: 'portal', clientSecret: 's3cret' },
  };
  const baseQuery = createGatewayBaseQuery(deps);
  const api = { dispatch: (action: { payload: GatewayOutcome }) => outcomes.push(action.payload) } as unknown as BaseQueryApi;
  const call = (request: Omit<GatewayRequest, 'siteId'> & { siteId?: string }) => baseQuery({ siteId: 'firstbank', ...request }, api, {});
  return { call, sent, outcomes, tokens, baseQuery, api };
}

describe('§7 headers on every request', () => {
  it('X-SITE-ID always; X-COOKIE-AUTH when the option is on; base /api in client-server mode', async () => {
    const { call, sent } = harness();
    await call({ url: 'site-config-service/config/site/firstbank' });
    expect(sent[0]).toEqual({
      url: '/api/site-config-service/config/site/firstbank',
      headers: expect.objectContaining({ 'x-site-id': 'firstbank', 'x-cookie-auth': 'true' }),
    });
    expect(sent[0]!.headers['x-xsrf-token']).toBeUndefined();
  });

  it('base /gateway/api outside client-server mode; page-root paths stay page-root', async () => {
    const { call, sent } = harness({ flags: { useClientServer: false }, preAuthEnabled: false });
    await call({ url: 'user-mgmt/user/find' });
    await call({ url: '/offersdata/customized-categories.json' });
    expect(sent.map((request) => request.url)).toEqual(['/gateway/api/user-mgmt/user/find', '/offersdata/customized-categories.json']);
  });

  it('X-XSRF-TOKEN echoes the XSRF-TOKEN cookie when it exists', async () => {
    const { call, sent } = harness({ cookies: { 'XSRF-TOKEN': 'xsrf-123' } });
    await call({ url: 'user-mgmt/user/find' });
    expect(sent[0]!.headers['x-xsrf-token']).toBe('xsrf-123');
  });

  it('no X-COOKIE-AUTH when the option is off', async () => {
    const { call, sent } = harness({ flags: { cookieAuthHeader: false } });
    await call({ url: 'user-mgmt/user/find' });
    expect(sent[0]!.headers['x-cookie-auth']).toBeUndefined();
  });
});

describe('§7 X-CID: learned from error responses, sent on login', () => {
  it('is not sent before one is known, then goes on login calls only', async () => {
    const { call, sent } = harness({
      answer: (config) => (config.url === 'user-mgmt/user/find' ? { status: 500, headers: { 'x-cid': 'cid-from-error' } } : { status: 200 }),
    });
    await call({ url: 'user-auth/login', method: 'POST' });
    await call({ url: 'user-mgmt/user/find' });
    await call({ url: 'user-auth/login', method: 'POST' });
    await call({ url: 'user-auth/oauth/token', method: 'POST' });
    await call({ url: 'site-config-service/config/site/firstbank' });
    expect(sent.map((request) => request.headers['x-cid'])).toEqual([undefined, undefined, 'cid-from-error', 'cid-from-error', undefined]);
  });

  it("is one per store: what one visitor's page learned is never sent for another's (the server renders many, ADR 0024)", async () => {
    const { baseQuery, api, sent } = harness({
      answer: (config) => (config.url === 'user-mgmt/user/find' ? { status: 500, headers: { 'x-cid': 'cid-of-a' } } : { status: 200 }),
    });
    const storeA = { ...api, extra: { gatewayClient: {} } } as BaseQueryApi;
    const storeB = { ...api, extra: { gatewayClient: {} } } as BaseQueryApi;
    await baseQuery({ siteId: 'firstbank', url: 'user-mgmt/user/find' }, storeA, {});
    await baseQuery({ siteId: 'firstbank', url: 'user-auth/login', method: 'POST' }, storeB, {});
    await baseQuery({ siteId: 'firstbank', url: 'user-auth/login', method: 'POST' }, storeA, {});
    expect(sent.map((request) => request.headers['x-cid'])).toEqual([undefined, undefined, 'cid-of-a']);
  });
});

describe('§7 X-HCAPTCHA-TOKEN', () => {
  it('carries the provider token for requests that ask for a captcha', async () => {
    const { call, sent } = harness({ captcha: { token: async () => 'captcha-ok' } });
    await call({ url: 'user-auth/login', method: 'POST', captcha: true });
    await call({ url: 'user-mgmt/user/find' });
    expect(sent.map((request) => request.headers['x-hcaptcha-token'])).toEqual(['captcha-ok', undefined]);
  });

  it('is empty when the captcha fails', async () => {
    const { call, sent } = harness();
    await call({ url: 'user-auth/login', method: 'POST', captcha: true });
    expect(sent[0]!.headers['x-hcaptcha-token']).toBe('');
  });

  it('is left out when the hcaptcha flag is off', async () => {
    const { call, sent } = harness({ flags: { hcaptcha: false }, captcha: { token: async () => 'captcha-ok' } });
    await call({ url: 'user-auth/login', method: 'POST', captcha: true });
    expect(sent[0]!.headers['x-hcaptcha-token']).toBeUndefined();
  });
});

describe('§7 tokens', () => {
  it('never in client-server mode, even with a stored token', async () => {
    const { call, sent } = harness({ tokens: { access_token: 'acc' } });
    await call({ url: 'site-config-service/config/site/firstbank' });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.authorization).toBeUndefined();
  });

  it.each([
    ['account/configurations/promotions-en_us.json', true],
    ['user-auth/login', true],
    ['user-auth/oauth/token', true],
    ['user-auth/oidc/authorize', true],
    ['user-auth/auth/user-token', true],
    ['user-auth/auth/refresh-token', true],
    ['user-mgmt/user/registration', true],
    ['user-mgmt/user/register/firstbank', true],
    ['user-mgmt/user/activate-token', true],
    ['user-mgmt/user/change-password-from-passcode', true],
    ['user-mgmt/user/activation-email', true],
    ['user-mgmt/user/send-passcode', true],
    ['site-config-service/config/site/firstbank', true],
    ['/offersdata/customized-categories.json', true],
    ['/offers/api/categories', true],
    ['bin/aem/rest', true],
    ['user-mgmt/user/find', false],
    ['user-attribute/user/firstbank', false],
    ['user-auth/oauth/token?preauth=true', false], // whitelisted
  ])('outside client-server mode %s gets a token: %s', (url, expected) => {
    expect(needsToken(url, { useClientServer: false })).toBe(expected);
  });

  it('outside client-server mode: the stored access token goes to listed endpoints only', async () => {
    const { call, sent } = harness({ flags: { useClientServer: false }, tokens: { access_token: 'acc' } });
    await call({ url: 'site-config-service/config/site/firstbank' });
    await call({ url: 'user-mgmt/user/find' });
    expect(sent.map((request) => request.headers.authorization)).toEqual(['Bearer acc', undefined]);
  });

  it('with no token the pre-auth token is fetched first (form, no-cache) and then used', async () => {
    const { call, sent, tokens } = harness({
      flags: { useClientServer: false },
      answer: (config) => (String(config.url).includes('preauth=true') ? { status: 200, data: { access_token: 'pre-1' } } : { status: 200 }),
    });
    await call({ url: 'bin/aem/rest' });
    expect(sent.map((request) => request.url)).toEqual(['/gateway/api/user-auth/oauth/token?preauth=true', '/gateway/api/bin/aem/rest']);
    expect(sent[0]!.headers['cache-control']).toBe('no-cache');
    expect(sent[0]!.headers.authorization).toBeUndefined();
    expect(sent[1]!.headers.authorization).toBe('Bearer pre-1');
    expect(tokens.get('preauth_token')).toBe('pre-1');
  });

  it('a failed pre-auth fetch clears the pre-auth token and the call goes without one', async () => {
    const { call, sent, tokens } = harness({
      flags: { useClientServer: false },
      answer: (config) => (String(config.url).includes('preauth=true') ? { status: 503 } : { status: 200 }),
    });
    await call({ url: 'bin/aem/rest' });
    expect(sent[1]!.headers.authorization).toBeUndefined();
    expect(tokens.has('preauth_token')).toBe(false);
  });

  it('no pre-auth fetch when it is disabled', async () => {
    const { call, sent } = harness({ flags: { useClientServer: false }, preAuthEnabled: false });
    await call({ url: 'bin/aem/rest' });
    expect(sent).toHaveLength(1);
  });
});

describe('every answer is reported to the error catalogue', () => {
  it('successes and errors, with status, code and X-CID', async () => {
    const { call, outcomes } = harness({
      answer: (config) =>
        config.url === 'user-mgmt/user/find'
          ? { status: 502, data: { error: 'BAD_GATEWAY', message: 'down' }, headers: { 'x-cid': 'ref-1' } }
          : { status: 200, headers: { 'x-cid': 'ref-ok' } },
    });
    const failed = await call({ url: 'user-mgmt/user/find' });
    await call({ url: 'bin/aem/rest', ownsAuthFailure: true });
    expect(failed).toEqual({ error: { status: 502, code: 'BAD_GATEWAY', message: 'down', correlationId: 'ref-1' } });
    expect(outcomes).toEqual([
      { url: 'user-mgmt/user/find', status: 502, code: 'BAD_GATEWAY', message: 'down', correlationId: 'ref-1', ownsAuthFailure: false },
      { url: 'bin/aem/rest', status: 200, code: null, message: null, correlationId: 'ref-ok', ownsAuthFailure: true },
    ]);
  });

  it('a request that got no answer is status 0 NETWORK_ERROR', async () => {
    const adapterFails: AxiosAdapter = async (config) => {
      throw new AxiosError('Network Error', 'ERR_NETWORK', config);
    };
    const outcomes: GatewayOutcome[] = [];
    const baseQuery = createGatewayBaseQuery({
      http: axios.create({ adapter: adapterFails }),
      flags: FEATURE_FLAGS,
      cookies: { get: () => undefined, set: () => undefined, remove: () => undefined },
      tokens: { get: () => null, set: () => undefined, remove: () => undefined },
      captcha: () => ({ token: async () => '' }),
      preAuth: { enabled: false, url: '', clientId: '', clientSecret: '' },
    });
    const api = { dispatch: (action: { payload: GatewayOutcome }) => outcomes.push(action.payload) } as unknown as BaseQueryApi;
    expect(await baseQuery({ url: 'bin/aem/rest', siteId: 'firstbank' }, api, {})).toEqual({
      error: { status: 0, code: 'NETWORK_ERROR', message: 'Network Error', correlationId: null },
    });
    expect(outcomes[0]?.status).toBe(0);
  });
});

it('a VALIDATION_FAILED answer keeps its per-field error keys', async () => {
  const { call } = harness({ answer: () => ({ status: 400, data: { error: 'VALIDATION_FAILED', message: 'Invalid body', fields: { email: 'error' } } }) });
  expect(await call({ url: 'forms/firstbank/registration/validate', method: 'POST' })).toEqual({
    error: { status: 400, code: 'VALIDATION_FAILED', message: 'Invalid body', correlationId: null, fields: { email: 'error' } },
  });
});

it('ADR 0008: a lock or limit keeps Retry-After in seconds, and body extras (attemptsLeft, maskedDestination) as details', async () => {
  const { call } = harness({
    answer: (config) =>
      config.url === 'user-auth/login'
        ? { status: 423, data: { error: 'USER_LOCKED', message: 'Locked.' }, headers: { 'retry-after': '900' } }
        : { status: 401, data: { error: 'OTP_INVALID', message: 'Wrong code.', attemptsLeft: 2 }, headers: { 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' } },
  });
  expect(await call({ url: 'user-auth/login', method: 'POST' })).toEqual({
    error: { status: 423, code: 'USER_LOCKED', message: 'Locked.', correlationId: null, retryAfterSeconds: 900 },
  });
  // Only the delta-seconds form the gateway sends is read; details carry the extras.
  expect(await call({ url: 'user-auth/otp/verify', method: 'POST' })).toEqual({
    error: { status: 401, code: 'OTP_INVALID', message: 'Wrong code.', correlationId: null, details: { attemptsLeft: 2 } },
  });
});
