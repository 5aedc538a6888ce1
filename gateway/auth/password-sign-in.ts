import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database, Queryable } from '../db/database';
import type { Fixtures } from '../site-files/load-fixtures';
import { HttpError } from '../http/errors';
import { hashPassword, verifyPassword } from '../security/password-hashing';
import type { AuthServices } from './auth-services';
import { CONCIERGE_ROLE } from './session-store';
import type { GivenProof } from './assurance';
import { passcodeChannelsOf, signInPolicyFor } from './sign-in-policy';
import { destinationsOf, sendPasscode } from './passcode-delivery';
import { checkBackupCode, backupCodeInvalid } from './backup-codes';
import { verifyPasscodeOrThrow, verifyTotpOrThrow } from './second-factor';
import { isHttps, LOGIN_CHALLENGE_COOKIE, readCookies, serializeCookie, TRUSTED_DEVICE_COOKIE } from './session-cookies';
import { describeDevice } from './session-device';
import { readSignedValue, signValue } from './signed-values';

/** ADR 0008: a pending sign-in lasts 10 minutes; a trusted device 15 (SPEC §9 otp_expiry). */
export const LOGIN_CHALLENGE_TTL_MS = 10 * 60_000;
export const TRUSTED_DEVICE_TTL_MS = 15 * 60_000;
const CHALLENGE_PURPOSE = 'login-challenge';
const TRUSTED_DEVICE_PURPOSE = 'trusted-device';

/** The SPEC §3 login payload, checked. */
export interface PasswordGrant {
  username: string;
  password: string;
  siteId: string;
  otp?: string;
  otpType?: 'email' | 'sms' | 'totp';
  /** A backup code in place of the authenticator code, when the phone is lost. */
  backupCode?: string;
  /**
   * SPEC §3 `vba_token`, ADR 0009 "Breached passwords": the login passcode mailed when the password is on
   * the breached list and nothing else of this sign-in proves the person; read only then.
   */
  vbaToken?: string;
  trustDevice: boolean;
}

/** What the sign-in tells beyond its answer. */
export interface SignInEvents {
  /** A wrong password just locked the typed account (ADR 0008 "Limits"), until `until`; known or not, every lock is told alike. */
  accountLocked(username: string, until: Date): Promise<void>;
}

export interface SignedInUser {
  id: string;
  roles: string[];
  status: string;
  mfaEnrollmentStatus: string;
  /** ADR 0025: the account's security stamp, which a trusted device must carry. */
  securityStamp: string;
}

/** Who a LOGIN_CHALLENGE cookie names, if it is genuine and live. */
export function readLoginChallenge(request: FastifyRequest, services: AuthServices): { userId: string; siteId: string } | null {
  return readSignedValue(readCookies(request).get(LOGIN_CHALLENGE_COOKIE), CHALLENGE_PURPOSE, services.keys.token, services.clock.now());
}

let dummyHash: Promise<string> | undefined;
/** A real argon2id hash of nothing anyone knows, verified for unknown users so they cost the same time. */
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}

/**
 * The password grant of ADR 0008, up to the point of opening a session: locks, password,
 * then the second factor (TOTP before anything else, then a trusted device or the site's `login_otp`),
 * and last, for a breached password nothing else proved, the mailbox (ADR 0009 "Breached passwords").
 * Throws the table's 401/423/429 answers; returns the user when the sign-in may complete.
 * `deviceId` is the browser's gmap_device cookie (ADR 0008 per-device limit).
 * `proofs`: what this sign-in was shown (ADR 0025), for the session to record; a passcode among them is
 * what `trust_device` may remember.
 */
export async function passwordSignIn(
  db: Database,
  fixtures: Fixtures,
  services: AuthServices,
  request: FastifyRequest,
  reply: FastifyReply,
  grant: PasswordGrant,
  deviceId: string,
  events: SignInEvents,
): Promise<{ user: SignedInUser; proofs: GivenProof[]; passwordCompromised: boolean; backupCodesLeft?: number }> {
  const { limits, clock } = services;
  if (grant.otp !== undefined || grant.backupCode !== undefined) await limits.countCodeCheck(request.ip);
  const recordPasswordFailure = () =>
    limits.recordPasswordFailure(grant.username, deviceId).catch(async (error: unknown) => {
      // This failure started the account's lock (a lock already on is refused by assertNotLocked before).
      if (error instanceof HttpError && error.code === 'USER_LOCKED') {
        await events.accountLocked(grant.username, new Date(clock.now().getTime() + (error.details.retryAfterSeconds ?? 0) * 1000));
      }
      throw error;
    });
  await limits.assertNotLocked(grant.username, deviceId);

  const found = await db.query<{ id: string; password_hash: string; roles: string[]; status: string; mfa_enrollment_status: string; security_stamp: string }>(
    'select id, password_hash, roles, status, mfa_enrollment_status, security_stamp from users where email = $1',
    [grant.username.trim().toLowerCase()],
  );
  const row = found.rows[0];
  // Unknown user and wrong password: same work (one argon2 verify), same answer (ADR 0008).
  const passwordOk = await verifyPassword(row?.password_hash ?? (await dummyPasswordHash()), grant.password);
  if (!row || !passwordOk) {
    const attemptsLeft = await recordPasswordFailure();
    throw new HttpError(401, 'BAD_CREDENTIALS', 'The user name or password is not right.', undefined, { extras: { attemptsLeft } });
  }
  const user: SignedInUser = {
    id: row.id,
    roles: row.roles,
    status: row.status,
    mfaEnrollmentStatus: row.mfa_enrollment_status,
    securityStamp: row.security_stamp,
  };
  // ADR 0017: an agent signs in only on a site granted to them; elsewhere the answer is a wrong password's.
  if (user.roles.includes(CONCIERGE_ROLE) && !(await isGrantedSite(db, user.id, grant.siteId))) {
    const attemptsLeft = await recordPasswordFailure();
    throw new HttpError(401, 'BAD_CREDENTIALS', 'The user name or password is not right.', undefined, { extras: { attemptsLeft } });
  }
  await limits.recordPasswordSuccess(grant.username);
  const policy = await signInPolicyFor(db, fixtures, user.id, grant.siteId);
  // ADR 0009: a listed password still signs in; the answer sends the user to compromised-credentials,
  // unless every site of the person turns that flow off (vba.enabled or vba.compromised_password_check "false").
  // Looked up only when the sign-in gets that far (the list may be an online range check).
  const isPasswordCompromised = async () => policy.compromisedPasswordCheck && (await services.compromisedPasswords.isCompromised(grant.password));
  // ADR 0025: each proof this sign-in was given, recorded with the session; the password first.
  const signedIn = async (secondProof: GivenProof | null, passwordCompromised?: boolean) => ({
    user,
    proofs: secondProof === null ? [PASSWORD_PROOF] : [PASSWORD_PROOF, secondProof],
    passwordCompromised: passwordCompromised ?? (await isPasswordCompromised()),
  });

  try {
    if (user.mfaEnrollmentStatus === 'ENROLLED') {
      if (grant.backupCode !== undefined) {
        const checked = await checkBackupCode(db, services, user.id, grant.backupCode);
        if (!checked.ok) throw backupCodeInvalid(401, checked.attemptsLeft);
        return { ...(await signedIn({ kind: 'backup-code' })), backupCodesLeft: checked.codesLeft };
      }
      // ADR 0008: an enrolled authenticator takes precedence over e-mail/SMS codes, and no trusted device skips it (ADR 0025).
      if (grant.otp === undefined || grant.otpType !== 'totp') {
        throw new HttpError(401, 'MFA_OTP_REQUIRED', 'Enter the code from your authenticator app.');
      }
      await verifyTotpOrThrow(db, services, user.id, grant.otp);
      return await signedIn({ kind: 'totp' });
    }

    const loginOtp = policy.loginOtp;
    const destinations = await destinationsOf(db, user.id, grant.siteId);
    // Stryker disable next-line all: only an account deleted since its password was checked has none; the next line fails on it alike, a 500 either way
    if (!destinations) throw new Error('The user was deleted while signing in');
    const channels = passcodeChannelsOf(loginOtp, destinations.phone !== null);
    // ADR 0025 "Trusted devices": a device trusted on this site, by this account as it is now (its stamp),
    // after a passcode by a channel this site's rule still allows, skips the passcode; nothing else does.
    const trustedDevice = isTrustedDevice(request, services, user, grant.siteId, channels);
    if (loginOtp === 'none') {
      // ADR 0009 "Breached passwords": the password is what attackers of a breach hold, so alone it opens
      // no detour that sets a new one; the person first proves the account's mailbox (or did, on this device).
      const passwordCompromised = await isPasswordCompromised();
      if (passwordCompromised && !trustedDevice) {
        await proveMailbox(db, services, request, user.id, grant);
        return await signedIn({ kind: 'passcode', channel: 'email' }, true);
      }
      return await signedIn(null, passwordCompromised);
    }
    if (trustedDevice) return await signedIn(null);
    if (grant.otp === undefined || grant.otpType === 'totp') {
      if (loginOtp === 'choice') throw new HttpError(401, 'OTP_REQUIRED', 'Choose where to receive your passcode.');
      // An `sms` site texts the code; a user without a phone gets it by e-mail instead (passcodeChannelsOf).
      // Stryker disable next-line StringLiteral: passcodeChannelsOf never answers an empty list; the fallback is for the type
      const channel = channels[0] ?? 'email';
      const maskedDestination = await sendPasscode(db, services, { userId: user.id, siteId: grant.siteId, purpose: 'login', channel, destinations });
      throw new HttpError(401, channel === 'sms' ? 'OTP_REQUIRED_PHONE' : 'OTP_REQUIRED_EMAIL', 'Enter the passcode we just sent.', undefined, {
        extras: { maskedDestination },
      });
    }
    const channel = await verifyPasscodeOrThrow(db, services, user.id, 'login', grant.otp, { siteId: grant.siteId, channel: grant.otpType });
    return await signedIn({ kind: 'passcode', channel });
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 401) {
      // The pending sign-in, so get-preference-details and send-code answer for this user only.
      setLoginChallenge(request, reply, services, user.id, grant.siteId);
      if (error.code === 'OTP_INVALID' || error.code === 'OTP_EXPIRED' || error.code === 'OTP_SPENT') await limits.recordDeviceFailure(deviceId);
    }
    throw error;
  }
}

/**
 * ADR 0009 "Breached passwords": without `vba_token`, mails a login passcode to the account's e-mail
 * and throws 401 VBA_TOKEN_REQUIRED; with it, checks it as a login passcode (counted per IP like one,
 * OTP_INVALID / OTP_EXPIRED when wrong). The e-mail, never the phone: the breach named an e-mail
 * address and a password, and the mailbox is what the password reset trusts too.
 */
async function proveMailbox(db: Database, services: AuthServices, request: FastifyRequest, userId: string, grant: PasswordGrant): Promise<void> {
  if (grant.vbaToken === undefined) {
    const destinations = await destinationsOf(db, userId, grant.siteId);
    // Stryker disable next-line all: as in passwordSignIn, a 500 either way for an account deleted meanwhile
    if (!destinations) throw new Error('The user was deleted while signing in');
    const maskedDestination = await sendPasscode(db, services, { userId, siteId: grant.siteId, purpose: 'login', channel: 'email', destinations });
    throw new HttpError(401, 'VBA_TOKEN_REQUIRED', 'Your password appeared in a data breach; enter the passcode we just sent.', undefined, {
      extras: { maskedDestination },
    });
  }
  await services.limits.countCodeCheck(request.ip);
  await verifyPasscodeOrThrow(db, services, userId, 'login', grant.vbaToken, { siteId: grant.siteId, channel: 'email' });
}

function setLoginChallenge(request: FastifyRequest, reply: FastifyReply, services: AuthServices, userId: string, siteId: string): void {
  const expiresAt = new Date(services.clock.now().getTime() + LOGIN_CHALLENGE_TTL_MS);
  const value = signValue({ purpose: CHALLENGE_PURPOSE, userId, siteId, expiresAt: expiresAt.getTime() }, services.keys.token, services.clock.now());
  reply.header('set-cookie', serializeCookie(LOGIN_CHALLENGE_COOKIE, value, { httpOnly: true, secure: isHttps(request), expires: expiresAt }));
}

const PASSWORD_PROOF: GivenProof = { kind: 'password' };

/**
 * The TRUSTED_DEVICE cookie of this browser stands for this sign-in (ADR 0025): the same account and site,
 * the account's stamp unchanged since (no new password, authenticator or "sign out everywhere"), and a
 * passcode by a channel the site still allows. An enrolled authenticator is asked before this is read.
 */
function isTrustedDevice(request: FastifyRequest, services: AuthServices, user: SignedInUser, siteId: string, channels: readonly string[]): boolean {
  const trusted = readSignedValue(readCookies(request).get(TRUSTED_DEVICE_COOKIE), TRUSTED_DEVICE_PURPOSE, services.keys.token, services.clock.now());
  return (
    trusted !== null &&
    trusted.userId === user.id &&
    trusted.siteId === siteId &&
    trusted.stamp === user.securityStamp &&
    trusted.channel !== undefined &&
    channels.includes(trusted.channel)
  );
}

/**
 * `trust_device=true` with a right passcode (never an authenticator code, which no device skips): this device
 * skips the passcode for 15 minutes (ADR 0008), on this site, while the account's stamp stays (ADR 0025).
 * The trust is also recorded as a row, for the holder's list of trusted devices (ADR 0025 "Sessions the holder can
 * see"); the cookie names its row, and a new trust of the same browser ends the row of the one it replaces, so
 * one browser lists once. The signed cookie stays the only proof: the sign-in never reads the row.
 */
export async function setTrustedDevice(
  db: Queryable,
  request: FastifyRequest,
  reply: FastifyReply,
  services: AuthServices,
  trust: { user: SignedInUser; siteId: string; channel: 'email' | 'sms' },
): Promise<void> {
  const now = services.clock.now();
  const expiresAt = new Date(now.getTime() + TRUSTED_DEVICE_TTL_MS);
  const replaced = trustedDeviceIdOf(request, services, trust.user.id);
  // Stryker disable next-line ConditionalExpression: with no id the update matches no row
  if (replaced !== null)
    await db.query('update trusted_devices set ended_at = $3 where id = $1 and user_id = $2 and ended_at is null', [replaced, trust.user.id, now]);
  const device = describeDevice(request.headers['user-agent']);
  const row = await db.query<{ id: string }>(
    `insert into trusted_devices (user_id, site_id, browser, os, security_stamp, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [trust.user.id, trust.siteId, device.browser, device.os, trust.user.securityStamp, now, expiresAt],
  );
  const value = signValue(
    {
      purpose: TRUSTED_DEVICE_PURPOSE,
      userId: trust.user.id,
      siteId: trust.siteId,
      expiresAt: expiresAt.getTime(),
      stamp: trust.user.securityStamp,
      channel: trust.channel,
      trustId: row.rows[0]?.id,
    },
    services.keys.token,
    now,
  );
  reply.header('set-cookie', serializeCookie(TRUSTED_DEVICE_COOKIE, value, { httpOnly: true, secure: isHttps(request), expires: expiresAt }));
}

/** The `trusted_devices` row this browser's genuine, live TRUSTED_DEVICE cookie of `userId` names, or null. */
export function trustedDeviceIdOf(request: FastifyRequest, services: AuthServices, userId: string): string | null {
  const trusted = readSignedValue(readCookies(request).get(TRUSTED_DEVICE_COOKIE), TRUSTED_DEVICE_PURPOSE, services.keys.token, services.clock.now());
  // Stryker disable next-line ConditionalExpression: a cookie without a row's id (none is made so) would name no row either way
  return trusted !== null && trusted.userId === userId && trusted.trustId !== undefined ? trusted.trustId : null;
}

async function isGrantedSite(db: Database, userId: string, siteId: string): Promise<boolean> {
  const granted = await db.query('select 1 from agent_site_grants where user_id = $1 and site_id = $2', [userId, siteId]);
  return granted.rows.length > 0;
}
