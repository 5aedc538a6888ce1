import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationBody } from '../support/account-requests';
import { API_BASES, buildTestGateway, TEST_XSRF_TOKEN } from '../support/test-gateway';

/**
 * ADR 0009 reuses ADR 0008's double-submit CSRF: every account call is a POST, and without the
 * X-XSRF-TOKEN header matching the XSRF-TOKEN cookie it is 403 before anything happens.
 */
const ACCOUNT_CALLS: [string, unknown][] = [
  ['user-mgmt/user/registration', registrationBody()],
  ['user-mgmt/user/register/firstbank', registrationBody()],
  ['user-mgmt/user/activate-token', { token: 'A'.repeat(43), password: 'Any#Pass1234' }],
  ['user-mgmt/user/activation-email', { email: 'ana@example.com', siteId: 'firstbank', locale: 'en_us' }],
  ['user-mgmt/user/send-passcode', { email: 'ana@example.com', siteId: 'firstbank', locale: 'en_us' }],
  ['user-mgmt/user/find-code', { email: 'ana@example.com', passcode: '123456' }],
  ['user-mgmt/user/change-password-from-passcode', { email: 'ana@example.com', passcode: '123456', password: 'New#Pass123', confirm_password: 'New#Pass123' }],
  ['user-mgmt/user/change-password', { currentPassword: 'Old#Pass123', password: 'New#Pass123', confirm_password: 'New#Pass123' }],
  ['user-mgmt/user/vba/compromised-password', { password: 'New#Pass123', confirm_password: 'New#Pass123' }],
  ['user-mgmt/user/remove-account', {}],
  // ADR 0021 "Telling the holder": a page elsewhere cannot sign the holder out everywhere with a link it holds.
  ['user-mgmt/user/secure-account', { token: 'A'.repeat(43) }],
];

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestGateway();
});
afterAll(() => app.close());

describe.each(API_BASES)('under %s', (base) => {
  it.each(ACCOUNT_CALLS)('POST %s without X-XSRF-TOKEN is 403 XSRF_TOKEN_MISSING', async (path, payload) => {
    const response = await app.inject({
      method: 'POST',
      url: `${base}/${path}`,
      payload: payload as object,
      headers: { cookie: `XSRF-TOKEN=${TEST_XSRF_TOKEN}`, 'x-hcaptcha-token': 'token' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('XSRF_TOKEN_MISSING');
  });

  it.each(ACCOUNT_CALLS)('POST %s with a wrong X-XSRF-TOKEN is 403 XSRF_TOKEN_INVALID', async (path, payload) => {
    const response = await app.inject({
      method: 'POST',
      url: `${base}/${path}`,
      payload: payload as object,
      headers: { cookie: `XSRF-TOKEN=${TEST_XSRF_TOKEN}`, 'x-xsrf-token': 'forged-token-000000000000' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('XSRF_TOKEN_INVALID');
  });
});
