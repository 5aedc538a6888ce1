import { ONE_TIME_CODE } from '../../../schemas/forms/one-time-code';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SITE_ID_PATTERN } from '../../../schemas/site-config/types';
import { changeNoticeOf, noticeOrigin, queueAccountNotice } from '../../account/account-notices';
import { signAccessToken } from '../../auth/access-tokens';
import type { AuthServices } from '../../auth/auth-services';
import { rememberSignInDevice } from '../../auth/known-devices';
import { BACKUP_CODE_INPUT } from '../../auth/backup-codes';
import { acceptFormBodies, readFormFields, type FieldRules } from '../../auth/form-fields';
import { passwordSignIn, setTrustedDevice, type PasswordGrant, type SignInEvents } from '../../auth/password-sign-in';
import { refreshTokenSite, spendRefreshToken } from '../../auth/refresh-tokens';
import { isSsoOnlySite } from '../../auth/sign-in-policy';
import { completeSignIn, deviceIdOf, type SignInAnswer } from '../../auth/sign-in-answer';
import { CONCIERGE_ROLE, SESSION_TTL_SECONDS } from '../../auth/session-store';
import { recordPasswordChangeRequired } from '../../account/new-password';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import { HttpError } from '../../http/errors';
import type { JobQueue } from '../../jobs/job-queue';
import { LOCALE_PATTERN } from '../../locale';
import { fromContract } from '../../http/route-contract';

/** Every field of SPEC §3's login payload and §7's token calls, with its longest accepted value. */
const FORM_RULES: FieldRules = {
  username: { maxLength: 254 },
  password: { maxLength: 256 },
  grant_type: { maxLength: 32, pattern: /^(password|refresh_token|client_credentials)$/ },
  siteId: { maxLength: 64, pattern: new RegExp(SITE_ID_PATTERN) },
  locale: { maxLength: 5, pattern: LOCALE_PATTERN },
  init_login: { maxLength: 5, pattern: /^true$/ },
  otp: { maxLength: 6, pattern: ONE_TIME_CODE },
  otp_type: { maxLength: 5, pattern: /^(email|sms|totp)$/ },
  backup_code: { maxLength: 20, pattern: BACKUP_CODE_INPUT },
  trust_device: { maxLength: 5, pattern: /^(true|false)$/ },
  // SPEC §3 sizes it as a token; ADR 0009 "Breached passwords" reads a 6-digit login passcode in it, and any other text is a wrong code.
  vba_token: { maxLength: 4096 },
  refresh_token: { maxLength: 128 },
  client_id: { maxLength: 128 },
  client_secret: { maxLength: 256 },
};

/**
 * SPEC §7 `POST user-auth/login` and `POST user-auth/oauth/token` (password, refresh_token and, with
 * `?preauth=true`, client_credentials), as docs/decisions/0008-sign-in-api.md fixes them. Every call
 * counts toward the per-IP limit before its body is read.
 */
export async function userAuthSignInRoutes(
  app: FastifyInstance,
  options: { db: Database; fixtures: Fixtures; auth: AuthServices; jobs: JobQueue },
): Promise<void> {
  const { db, fixtures, auth, jobs } = options;
  await acceptFormBodies(app);

  app.route({
    ...fromContract('POST /user-auth/login'),
    handler: async (request, reply): Promise<SignInAnswer> => {
      await auth.limits.countSignInCall(request.ip);
      const fields = await readFormFields(request, FORM_RULES);
      requireFields(fields, ['username', 'password', 'grant_type', 'siteId']);
      if (fields.grant_type !== 'password')
        throw new HttpError(400, 'VALIDATION_FAILED', 'Invalid form: grant_type must be password.', { grant_type: 'invalid' });
      return signInWithPassword(request, reply, fields, false);
    },
  });

  app.route<{ Querystring: { preauth?: string } }>({
    ...fromContract('POST /user-auth/oauth/token'),
    handler: async (request, reply) => {
      await auth.limits.countSignInCall(request.ip);
      const fields = await readFormFields(request, FORM_RULES);
      requireFields(fields, ['grant_type']);
      if (request.query.preauth === 'true') return preauthToken(fields);
      if (fields.grant_type === 'password') {
        requireFields(fields, ['username', 'password', 'siteId']);
        return signInWithPassword(request, reply, fields, true);
      }
      if (fields.grant_type === 'refresh_token') {
        requireFields(fields, ['refresh_token']);
        const refreshToken = fields.refresh_token ?? '';
        // ADR 0017: a refresh continues the site it was issued for; naming another is refused before the token is spent.
        const issuedFor = await refreshTokenSite(db, refreshToken);
        if (issuedFor !== null && fields.siteId !== undefined && fields.siteId !== issuedFor) {
          throw new HttpError(403, 'SITE_MISMATCH', 'This refresh token belongs to another site; sign in on this site.');
        }
        const grant = await spendRefreshToken(db, refreshToken, auth.clock.now());
        if (!grant) throw new HttpError(401, 'INVALID_GRANT', 'The refresh token is not valid; sign in again.');
        const user = await db.query<{ roles: string[]; status: string; mfa_enrollment_status: string }>(
          'select roles, status, mfa_enrollment_status from users where id = $1',
          [grant.userId],
        );
        const row = user.rows[0];
        if (!row) throw new HttpError(401, 'INVALID_GRANT', 'The refresh token is not valid; sign in again.');
        return completeSignIn(
          db,
          auth,
          request,
          reply,
          {
            userId: grant.userId,
            siteId: grant.siteId,
            roles: row.roles,
            status: row.status,
            mfaEnrollmentStatus: row.mfa_enrollment_status,
            signedInAt: grant.signedInAt,
          },
          { familyId: grant.familyId },
        );
      }
      throw new HttpError(400, 'VALIDATION_FAILED', 'Invalid form: grant_type must be password or refresh_token (client_credentials with ?preauth=true).', {
        grant_type: 'invalid',
      });
    },
  });

  async function signInWithPassword(request: FastifyRequest, reply: FastifyReply, fields: Record<string, string>, withTokens: boolean): Promise<SignInAnswer> {
    const siteId = fields.siteId ?? '';
    const site = fixtures.sites.get(siteId);
    if (!site) throw new HttpError(400, 'VALIDATION_FAILED', 'Invalid form: siteId names no site.', { siteId: 'invalid' });
    // ADR 0017: an SSO site's people sign in at its identity provider; a password is never tried here.
    if (isSsoOnlySite(site.config))
      throw new HttpError(403, 'SSO_REQUIRED', 'This site signs in through its identity provider, not with a password.', { siteId: 'ssoOnly' });
    const grant: PasswordGrant = {
      username: fields.username ?? '',
      password: fields.password ?? '',
      siteId,
      otp: fields.otp,
      otpType: fields.otp_type as PasswordGrant['otpType'],
      backupCode: fields.backup_code,
      vbaToken: fields.vba_token,
      trustDevice: fields.trust_device === 'true',
    };
    const deviceId = deviceIdOf(request, reply, auth.clock.now());
    const events: SignInEvents = {
      accountLocked: (username, until) =>
        queueAccountNotice(jobs, reply, {
          notice: 'account-locked',
          email: username.trim().toLowerCase(),
          siteId,
          origin: noticeOrigin(request, auth),
          until: until.toISOString(),
        }),
    };
    const { user, proofs, passwordCompromised, backupCodesLeft } = await passwordSignIn(db, fixtures, auth, request, reply, grant, deviceId, events);
    const channel = proofs.find((proof) => proof.kind === 'passcode')?.channel;
    const trusted = grant.trustDevice && channel !== undefined;
    if (trusted) await setTrustedDevice(db, request, reply, auth, { user, siteId, channel });
    // ADR 0009: the account must replace a breached password before any other signed-in call (the
    // access hook holds it); an agent is never sent to the card holder's detour (ADR 0014).
    await recordPasswordChangeRequired(db, user.id, passwordCompromised && !user.roles.includes(CONCIERGE_ROLE));
    const completed = await completeSignIn(
      db,
      auth,
      request,
      reply,
      { userId: user.id, siteId, roles: user.roles, status: user.status, mfaEnrollmentStatus: user.mfaEnrollmentStatus, proofs },
      withTokens ? {} : false,
    );
    // ADR 0021 "Telling the holder": a device trusted, or else a device new to the account, is told to its address.
    // One mail per sign-in: trusting a device says someone signed in on it.
    const sighting = await rememberSignInDevice(db, user.id, deviceId, auth.clock.now());
    if (trusted || sighting === 'new') {
      await queueAccountNotice(jobs, reply, { notice: trusted ? 'device-trusted' : 'new-device-sign-in', ...changeNoticeOf(request, auth, user.id, siteId) });
    }
    // A backup code was spent: the app says how many are left and offers to set up two-step again.
    const answer = backupCodesLeft === undefined ? completed : { ...completed, backupCodesLeft };
    return passwordCompromised ? { ...answer, passwordCompromised: true } : answer;
  }

  /** ADR 0008 pre-auth: client_credentials with the app's client id and secret, compared in constant time. */
  function preauthToken(fields: Record<string, string>): { access_token: string; token_type: 'bearer'; expires_in: number } {
    requireFields(fields, ['client_id', 'client_secret']);
    if (fields.grant_type !== 'client_credentials') {
      throw new HttpError(400, 'VALIDATION_FAILED', 'Invalid form: a pre-auth token needs grant_type client_credentials.', { grant_type: 'invalid' });
    }
    const client = auth.preauthClient;
    if (!sameSecret(fields.client_id ?? '', client.id) || !sameSecret(fields.client_secret ?? '', client.secret)) {
      throw new HttpError(401, 'INVALID_CLIENT', 'The client credentials are not right.');
    }
    const now = auth.clock.now();
    const exp = Math.floor(now.getTime() / 1000) + SESSION_TTL_SECONDS;
    return {
      access_token: signAccessToken({ sub: client.id, siteId: '', authorities: ['ROLE_PREAUTH'], exp }, auth.keys.token.current(now), now),
      token_type: 'bearer',
      expires_in: SESSION_TTL_SECONDS,
    };
  }
}

function requireFields(fields: Record<string, string>, names: readonly string[]): void {
  const missing = names.filter((name) => fields[name] === undefined);
  if (missing.length > 0) {
    throw new HttpError(
      400,
      'VALIDATION_FAILED',
      `Invalid form: ${missing.map((name) => `${name} is required`).join('; ')}.`,
      Object.fromEntries(missing.map((name) => [name, 'required'])),
    );
  }
}

/** Equal-length digests, so the comparison takes the same time whatever the guess. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
