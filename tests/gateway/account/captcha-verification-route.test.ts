import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { hcaptchaVerifier } from '../../../gateway/account/captcha-verifier';
import { buildGateway } from '../../../gateway/server';
import { firstbankUser, registrationBody } from '../support/account-requests';
import { API_BASES, buildTestGateway, realFixtures, stubDatabase, withXsrf } from '../support/test-gateway';

/** hCaptcha's siteverify as a fake: a token is good only when it is `P1_good`. No network. */
const fakeSiteverify: typeof fetch = async (_url, init) => {
  const token = new URLSearchParams(String(init?.body)).get('response');
  return new Response(JSON.stringify({ success: token === 'P1_good' }), { status: 200 });
};

async function gatewayWithHcaptcha(): Promise<FastifyInstance> {
  return buildGateway({
    db: stubDatabase,
    fixtures: await realFixtures(),
    testMode: true,
    auth: { captchaVerifier: hcaptchaVerifier({ secret: '0xsecret', fetch: fakeSiteverify }) },
  });
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const verify = (gateway: FastifyInstance, base: string, token?: string) =>
  gateway.inject({
    method: 'POST',
    url: `${base}/user-auth/internal/hcaptcha/verification`,
    headers: withXsrf(token === undefined ? {} : { 'x-hcaptcha-token': token }),
  });

// SPEC §7 declared call internal/hcaptcha/verification; ADR 0013.
describe.each(API_BASES)('POST %s/user-auth/internal/hcaptcha/verification', (base) => {
  it('answers success for a token the verifier accepts (offline verifier: any non-empty token)', async () => {
    app = await buildTestGateway();
    const response = await verify(app, base, 'offline-development-captcha');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
  });

  it('answers 400 CAPTCHA_REQUIRED naming the header when the token is missing or empty (SPEC §7 empty on failure)', async () => {
    app = await buildTestGateway();
    for (const token of [undefined, '']) {
      const response = await verify(app, base, token);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'CAPTCHA_REQUIRED', fields: { 'x-hcaptcha-token': 'required' } });
    }
  });

  it('asks hCaptcha when configured: a good token passes, any other is 400 CAPTCHA_INVALID', async () => {
    app = await gatewayWithHcaptcha();
    expect((await verify(app, base, 'P1_good')).statusCode).toBe(200);
    const refused = await verify(app, base, 'P1_forged');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'CAPTCHA_INVALID', fields: { 'x-hcaptcha-token': 'invalid' } });
  });
});

describe('registration with hCaptcha configured (ADR 0009 captcha_required, ADR 0013)', () => {
  it('refuses a token hCaptcha does not accept before anything is stored', async () => {
    app = await gatewayWithHcaptcha();
    const response = await app.inject({
      method: 'POST',
      url: '/api/user-mgmt/user/registration',
      headers: withXsrf({ 'content-type': 'application/json', 'x-hcaptcha-token': 'P1_forged' }),
      payload: JSON.stringify(registrationBody(firstbankUser())),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'CAPTCHA_INVALID' });
  });
});
