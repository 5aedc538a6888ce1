import { describe, expect, it } from 'vitest';
import type { GatewayOutcome } from '../../../src/api/gateway-events';
import { reactionTo } from '../../../src/app/error-catalogue';

/** SPEC §8 error catalogue, one gateway answer at a time. */
const PAGE = '/firstbank/en_us/account/profile';
const outcome = (overrides: Partial<GatewayOutcome>): GatewayOutcome => ({
  url: 'user-mgmt/user/find',
  status: 200,
  code: null,
  message: null,
  correlationId: 'cid-1',
  ownsAuthFailure: false,
  ...overrides,
});

describe('§8 global alert', () => {
  it.each([0, 500, 502, 524])('status %i shows the global alert with the server reference', (status) => {
    expect(reactionTo(outcome({ status, code: 'X' }), PAGE)).toEqual({ kind: 'show-global-alert', reference: 'cid-1' });
  });

  it.each([400, 404, 409, 501, 503])('status %i does not', (status) => {
    expect(reactionTo(outcome({ status, code: 'X' }), PAGE).kind).toBe('none');
  });

  it('a successful response hides it', () => {
    expect(reactionTo(outcome({ status: 200 }), PAGE)).toEqual({ kind: 'hide-global-alert' });
    expect(reactionTo(outcome({ status: 204 }), PAGE)).toEqual({ kind: 'hide-global-alert' });
  });
});

describe('§8 authentication failure', () => {
  it.each([
    [{ status: 401, code: 'UNAUTHENTICATED' }, 'authentication-failure'],
    [{ status: 401, code: 'UNAUTHENTICATED', url: 'user-mgmt/user/change-password' }, 'none'], // 401 except on change-password
    [{ status: 403, code: 'FORBIDDEN', url: 'user-auth/oauth/token' }, 'authentication-failure'], // 403 on auth-base URLs
    [{ status: 403, code: 'FORBIDDEN', url: 'user-mgmt/user/find' }, 'none'],
    [{ status: 400, code: 'BAD_REQUEST', url: 'user-auth/saml/auth/failure' }, 'authentication-failure'], // any /auth/failure URL
    [{ status: 400, code: 'BAD_REQUEST', message: 'Invalid authentication request' }, 'authentication-failure'],
    [{ status: 400, code: 'BAD_REQUEST', message: 'Invalid payload' }, 'none'],
    [{ status: 401, code: 'BAD_CREDENTIALS', url: 'user-auth/oauth/token' }, 'none'], // skipped on token URLs
    [{ status: 401, code: 'BAD_CREDENTIALS', url: 'user-auth/login' }, 'none'], // and login URLs
    [{ status: 401, code: 'BAD_CREDENTIALS', url: 'user-mgmt/user/find' }, 'authentication-failure'],
    [{ status: 401, code: 'UNAUTHENTICATED', ownsAuthFailure: true }, 'none'], // the §4 background check decides itself
  ] as [Partial<GatewayOutcome>, string][])('%j → %s', (overrides, kind) => {
    expect(reactionTo(outcome(overrides), PAGE).kind).toBe(kind);
  });

  it('carries the error code for the machine (reload or not)', () => {
    expect(reactionTo(outcome({ status: 401, code: 'OTP_REQUIRED' }), PAGE)).toEqual({ kind: 'authentication-failure', code: 'OTP_REQUIRED' });
  });
});

describe('§8 exceptions', () => {
  it('config and content fetch failures fall back silently: no alert (SPEC §8)', () => {
    for (const url of ['site-config-service/config/site/firstbank', 'bin/aem/rest', 'cmsapi/content.data.json/vpp/vppcards/vppcards/cards']) {
      for (const status of [0, 500, 502, 524]) expect(reactionTo(outcome({ url, status, code: 'X' }), PAGE).kind, `${url} ${status}`).toBe('none');
    }
    expect(reactionTo(outcome({ url: 'user-mgmt/user/find', status: 500, code: 'X' }), PAGE).kind).toBe('show-global-alert');
  });

  it('errors at /remove-asset URLs are ignored', () => {
    for (const status of [0, 401, 502]) {
      expect(reactionTo(outcome({ url: 'user-attribute/user/assets/a1/remove-asset', status, code: 'X' }), PAGE).kind).toBe('none');
    }
  });

  it('nothing is handled on /otp-check-passcode', () => {
    const page = '/firstbank/en_us/account/otp-check-passcode';
    for (const status of [200, 401, 502]) expect(reactionTo(outcome({ status, code: 'X' }), page).kind).toBe('none');
  });
});
