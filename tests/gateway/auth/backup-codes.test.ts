import { afterEach, beforeEach, expect, it } from 'vitest';
import { totpCode, totpStepAt } from '../../../gateway/auth/totp';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { insertUser, TestBrowser } from '../support/test-browser';

/**
 * Backup codes (docs/decisions/0021-backup-codes-and-account-notices.md; SPEC §2 mfa-setup,
 * login-otp): ten single-use codes handed out at enrolment, a way in when the phone is lost.
 */
const EMILY = { email: 'emily@example.com', password: 'Firstbank#2025', siteId: 'firstbank' };
const BACKUP_CODE_SHAPE = /^[A-Z2-7]{5}-[A-Z2-7]{5}$/;

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let browser: TestBrowser;
  let secret: string;
  let codes: string[];

  const codeNow = () => totpCode(secret, totpStepAt(gateway.clock.now()));
  const emily = (extra: Record<string, string> = {}) => browser.login({ username: EMILY.email, password: EMILY.password, siteId: 'firstbank', ...extra });

  beforeEach(async () => {
    gateway = await openSignInGateway(leg);
    await insertUser(gateway.test.db, EMILY);
    browser = await new TestBrowser(gateway.app).open();
    await emily();
    await emily({ otp: await gateway.latestCode(EMILY.email), otp_type: 'email' });
    const setup = await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/setup' });
    secret = setup.json<{ secret: string }>().secret;
    const enrolled = await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/enroll', json: { code: codeNow() } });
    expect(enrolled.statusCode).toBe(200);
    codes = enrolled.json<{ backupCodes: string[] }>().backupCodes;
    await browser.call({ method: 'POST', url: 'user-auth/tokens/revoke' });
  });
  afterEach(() => gateway.dispose());

  it('enrolling hands out 10 distinct codes once; only keyed hashes of them are stored', async () => {
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(BACKUP_CODE_SHAPE);
    const stored = await gateway.test.db.query('select * from mfa_backup_codes');
    expect(stored.rows).toHaveLength(10);
    const dump = JSON.stringify(stored.rows);
    for (const code of codes) {
      expect(dump).not.toContain(code);
      expect(dump).not.toContain(code.replace('-', ''));
    }
  });

  it('a backup code signs in once in place of the authenticator code and tells how many are left; the same code again is refused', async () => {
    expect((await emily()).json().error).toBe('MFA_OTP_REQUIRED');
    // Typed in lower case with a space instead of the hyphen: still the code.
    const typed = codes[0]!.toLowerCase().replace('-', ' ');
    const signedIn = await emily({ backup_code: typed });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ status: 'SIGNED_IN', mfaEnrollmentStatus: 'ENROLLED', backupCodesLeft: 9 });
    expect((await browser.call({ method: 'GET', url: 'user-mgmt/user/mfa/backup-codes' })).json()).toEqual({ remaining: 9 });
    await browser.call({ method: 'POST', url: 'user-auth/tokens/revoke' });

    const again = await emily({ backup_code: codes[0]! });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ error: 'OTP_INVALID', attemptsLeft: 4 });
    expect(browser.cookies.has('SESSION')).toBe(false);
  });

  it('wrong backup codes count toward the same limit as authenticator codes: after 5 wrong tries neither a right backup code nor a right authenticator code gets in until the window ends', async () => {
    const first = await emily({ backup_code: 'AAAAA-AAAAA' });
    expect(first.json()).toMatchObject({ error: 'OTP_INVALID', attemptsLeft: 4 });
    // Mixed: wrong authenticator codes and wrong backup codes share the count.
    expect((await emily({ otp: '000000', otp_type: 'totp' })).json()).toMatchObject({ attemptsLeft: 3 });
    for (const attemptsLeft of [2, 1, 0]) expect((await emily({ backup_code: 'BBBBB-BBBBB' })).json()).toMatchObject({ error: 'OTP_INVALID', attemptsLeft });
    const locked = await emily({ backup_code: codes[1]! });
    expect(locked.statusCode).toBe(401);
    expect(locked.json()).toMatchObject({ error: 'OTP_INVALID', attemptsLeft: 0 });
    gateway.clock.advance(30);
    expect((await emily({ otp: codeNow(), otp_type: 'totp' })).json()).toMatchObject({ error: 'OTP_INVALID', attemptsLeft: 0 });
    gateway.clock.advance(10 * 60);
    // The refused try did not spend the code.
    expect((await emily({ backup_code: codes[1]! })).json()).toMatchObject({ status: 'SIGNED_IN', backupCodesLeft: 9 });
  });

  it('new codes (asked with an authenticator code) void the old ones', async () => {
    gateway.clock.advance(30);
    await emily({ otp: codeNow(), otp_type: 'totp' });
    gateway.clock.advance(30);
    const renewed = await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/backup-codes', json: { code: codeNow() } });
    expect(renewed.statusCode).toBe(200);
    const fresh = renewed.json<{ backupCodes: string[] }>().backupCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => codes.includes(code))).toEqual([]);
    await browser.call({ method: 'POST', url: 'user-auth/tokens/revoke' });

    expect((await emily({ backup_code: codes[2]! })).json()).toMatchObject({ error: 'OTP_INVALID' });
    expect((await emily({ backup_code: fresh[0]! })).json()).toMatchObject({ status: 'SIGNED_IN', backupCodesLeft: 9 });
  });

  it('new codes need a second factor: none or a used backup code is refused with 400 (the session stays)', async () => {
    await emily({ backup_code: codes[3]! });
    const none = await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/backup-codes', json: {} });
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toBe('VALIDATION_FAILED');
    const used = await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/backup-codes', json: { backupCode: codes[3]! } });
    expect(used.statusCode).toBe(400);
    expect(used.json()).toMatchObject({ error: 'OTP_INVALID', fields: { backupCode: 'invalid' } });
    expect((await browser.call({ method: 'GET', url: 'user-mgmt/user/mfa/backup-codes' })).json()).toEqual({ remaining: 9 });
  });

  it('a lost phone: signed in with a backup code, the person removes the old authenticator with another one and can enrol a new phone', async () => {
    await emily({ backup_code: codes[4]! });
    const removed = await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/unenroll', json: { backupCode: codes[5]! } });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ mfaEnrollmentStatus: 'NOT_ENROLLED' });
    // The codes belonged to the removed authenticator.
    expect((await gateway.test.db.query('select 1 from mfa_backup_codes')).rows).toEqual([]);
    const setup = await browser.call({ method: 'POST', url: 'user-mgmt/user/mfa/totp/setup' });
    expect(setup.statusCode).toBe(200);
  });
});
