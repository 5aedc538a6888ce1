import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rotateKey, type AdminContext } from '../../../gateway/admin/admin-tasks';
import { totpCode, totpStepAt } from '../../../gateway/auth/totp';
import { resealTotpSecrets } from '../../../gateway/auth/totp-enrolment';
import { createKeyedSecretBox } from '../../../gateway/security/keyed-secret-box';
import { KEY_ACTIVATION_DELAY_MS, type KeyName } from '../../../gateway/security/key-ring';
import { ASSETS, eligiblePan, openCardsGateway, type CardsGateway, type RecordingBrowser } from '../cards/card-test-support';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * ADR 0026 "Key rotation with a grace window", through a running gateway: a key rotated with the admin task, the
 * gateway's rings read again (as every KEY_RING_REFRESH_MS does), the clock moved past the new key's activation and
 * past the grace. What was signed, sealed or fingerprinted under the earlier key keeps working as the ADR says.
 */
const EMILY = { email: 'emily@example.com', password: 'Firstbank#2025', siteId: 'firstbank' };
const OLIVER = { email: 'oliver@example.com', password: 'Firstbank#2026', siteId: 'firstbank' };
const ACTIVATION_S = KEY_ACTIVATION_DELAY_MS / 1000 + 1;

async function rotate(gateway: SignInGateway, name: KeyName, grace?: string): Promise<void> {
  const context: AdminContext = { db: gateway.test.db, sites: new Set(), operator: 'ops.tester', correlationId: 'rotation-test', now: gateway.clock.now() };
  await rotateKey(context, gateway.roots[name], name, grace);
  // What the gateway's refresh does within KEY_RING_REFRESH_MS; the test does not wait for it.
  await gateway.keys.refresh(gateway.test.db);
}

describeEachDatabase((leg) => {
  describe('token-signing', () => {
    let gateway: SignInGateway;
    beforeEach(async () => {
      gateway = await openSignInGateway(leg);
      for (const user of [EMILY, OLIVER]) await insertUser(gateway.test.db, user);
    });
    afterEach(() => gateway.dispose());

    const login = (browser: TestBrowser, user: typeof EMILY, extra: Record<string, string> = {}) =>
      browser.login({ username: user.email, password: user.password, siteId: user.siteId, ...extra });

    it('a passcode and sign-in challenge made before a rotation still sign in during the grace and not after it; new values name the new key', async () => {
      // firstbank asks an e-mailed passcode: both sign-ins get theirs, and a LOGIN_CHALLENGE cookie, under `env`.
      const early = await new TestBrowser(gateway.app).open();
      const late = await new TestBrowser(gateway.app).open();
      expect((await login(early, EMILY)).json().error).toBe('OTP_REQUIRED_EMAIL');
      expect((await login(late, OLIVER)).json().error).toBe('OTP_REQUIRED_EMAIL');
      expect(early.cookies.get('LOGIN_CHALLENGE')).toMatch(/\.env$/);
      const emilyCode = await gateway.latestCode(EMILY.email);
      const oliverCode = await gateway.latestCode(OLIVER.email);

      await rotate(gateway, 'token-signing', '5m');
      gateway.clock.advance(ACTIVATION_S);
      const during = await login(early, EMILY, { otp: emilyCode, otp_type: 'email' });
      expect(during.statusCode).toBe(200);
      expect(during.json()).toMatchObject({ status: 'SIGNED_IN' });
      // What is signed now names k2: a new sign-in's challenge, and an access token's kid.
      const fresh = await new TestBrowser(gateway.app).open();
      await login(fresh, EMILY);
      expect(fresh.cookies.get('LOGIN_CHALLENGE')).toMatch(/\.k2$/);
      const token = await fresh.login(
        { username: EMILY.email, password: EMILY.password, siteId: 'firstbank', otp: await gateway.latestCode(EMILY.email), otp_type: 'email' },
        'user-auth/oauth/token',
      );
      const header = JSON.parse(Buffer.from(String(token.json().access_token).split('.')[0]!, 'base64url').toString()) as { kid: string };
      expect(header.kid).toBe('k2');

      // Past the grace (activation + 5 minutes), while the code itself (10 minutes) would still be live.
      gateway.clock.advance(5 * 60);
      const after = await login(late, OLIVER, { otp: oliverCode, otp_type: 'email' });
      expect(after.statusCode).toBe(401);
      expect(after.json()).toMatchObject({ error: 'OTP_INVALID' });
    });
  });

  describe('totp-encryption', () => {
    let gateway: SignInGateway;
    let browser: TestBrowser;
    beforeEach(async () => {
      gateway = await openSignInGateway(leg);
      await insertUser(gateway.test.db, EMILY);
      browser = await new TestBrowser(gateway.app).open();
      await browser.login({ username: EMILY.email, password: EMILY.password, siteId: 'firstbank' });
      await browser.login({
        username: EMILY.email,
        password: EMILY.password,
        siteId: 'firstbank',
        otp: await gateway.latestCode(EMILY.email),
        otp_type: 'email',
      });
    });
    afterEach(() => gateway.dispose());

    const sealed = async () => (await gateway.test.db.query<{ secret_sealed: string }>('select secret_sealed from totp_secrets')).rows[0]?.secret_sealed;
    const signInWithAuthenticator = (secret: string) =>
      browser.login({
        username: EMILY.email,
        password: EMILY.password,
        siteId: 'firstbank',
        otp: totpCode(secret, totpStepAt(gateway.clock.now())),
        otp_type: 'totp',
      });

    it('a secret sealed under the earlier key still signs in, is sealed again under the current key, and so outlives the grace', async () => {
      const { secret } = (await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/setup' })).json<{ secret: string }>();
      const code = totpCode(secret, totpStepAt(gateway.clock.now()));
      expect((await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/enroll', json: { code } })).statusCode).toBe(200);
      expect(await sealed()).toMatch(/^v2\.env\./);

      await rotate(gateway, 'totp-encryption', '1d');
      gateway.clock.advance(ACTIVATION_S);
      expect((await signInWithAuthenticator(secret)).statusCode).toBe(200);
      expect(await sealed()).toMatch(/^v2\.k2\./);

      // Two days on, `env` has retired; the secret opens under k2.
      gateway.clock.advance(2 * 24 * 3600);
      const later = await signInWithAuthenticator(secret);
      expect(later.statusCode).toBe(200);
      expect(later.json()).toMatchObject({ status: 'SIGNED_IN', mfaEnrollmentStatus: 'ENROLLED' });
    });

    it('a secret nobody uses during the grace is sealed again by the sweep each key refresh runs, and still signs in after it', async () => {
      const { secret } = (await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/setup' })).json<{ secret: string }>();
      const code = totpCode(secret, totpStepAt(gateway.clock.now()));
      expect((await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/enroll', json: { code } })).statusCode).toBe(200);

      await rotate(gateway, 'totp-encryption', '1d');
      // Before the new key signs, the sweep has nothing to do.
      const box = createKeyedSecretBox(gateway.keys.totp, gateway.clock);
      expect(await resealTotpSecrets(gateway.test.db, box, gateway.keys.totp, gateway.clock.now())).toBe(0);
      gateway.clock.advance(ACTIVATION_S);
      expect(await resealTotpSecrets(gateway.test.db, box, gateway.keys.totp, gateway.clock.now())).toBe(1);
      expect(await sealed()).toMatch(/^v2\.k2\./);
      expect(await resealTotpSecrets(gateway.test.db, box, gateway.keys.totp, gateway.clock.now())).toBe(0);

      gateway.clock.advance(2 * 24 * 3600);
      expect((await signInWithAuthenticator(secret)).statusCode).toBe(200);
    });
  });

  describe('card-fingerprint', () => {
    let gateway: CardsGateway;
    beforeEach(async () => {
      gateway = await openCardsGateway(leg);
    });
    afterEach(() => gateway.dispose());

    const enrol = (browser: RecordingBrowser, pan: string) =>
      browser.call({ method: 'POST', url: ASSETS, json: { siteId: 'firstbank', userAssetRequest: [{ assetType: 'PAN', value: pan }] } });
    const keyOfCards = async () =>
      (
        await gateway.test.db.query<{ last_four: string; pan_fingerprint_key: string }>(
          'select last_four, pan_fingerprint_key from assets order by enrolment_order',
        )
      ).rows;

    it('a card added before a rotation is still refused as a duplicate, on its account and on another, during and long after', async () => {
      const ana = await gateway.signedIn('ana@example.com', 'firstbank');
      expect((await enrol(ana.browser, eligiblePan(40))).statusCode).toBe(201);

      await rotate(gateway, 'card-fingerprint');
      gateway.clock.advance(ACTIVATION_S);
      const bea = await gateway.signedIn('bea@example.com', 'firstbank');
      expect((await enrol(bea.browser, eligiblePan(40))).json()).toMatchObject({ error: 'CARD_NOT_AVAILABLE' });
      expect((await enrol(ana.browser, eligiblePan(40))).json()).toMatchObject({ error: 'CARD_DUPLICATE' });
      expect((await enrol(bea.browser, eligiblePan(41))).statusCode).toBe(201);
      expect(await keyOfCards()).toEqual([
        { last_four: eligiblePan(40).slice(-4), pan_fingerprint_key: 'env' },
        { last_four: eligiblePan(41).slice(-4), pan_fingerprint_key: 'k2' },
      ]);

      // A year on, after another rotation: both cards, stored under two different keys, still have their one account.
      gateway.clock.advance(366 * 24 * 3600);
      await rotate(gateway, 'card-fingerprint');
      gateway.clock.advance(ACTIVATION_S);
      const carol = await gateway.signedIn('carol@example.com', 'firstbank');
      expect((await enrol(carol.browser, eligiblePan(40))).json()).toMatchObject({ error: 'CARD_NOT_AVAILABLE' });
      expect((await enrol(carol.browser, eligiblePan(41))).json()).toMatchObject({ error: 'CARD_NOT_AVAILABLE' });
    });
  });
});
