import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SIGN_IN_ANSWER } from '../../schemas/api/response-schemas';
import type { SchemaType } from '../../schemas/api/schema-type';
import type { Database } from '../db/database';
import { signAccessToken } from './access-tokens';
import { recordProofs, type GivenProof } from './assurance';
import type { AuthServices } from './auth-services';
import { issueRefreshToken, revokeRefreshTokens } from './refresh-tokens';
import { expireCookies, isHttps, LOGIN_CHALLENGE_COOKIE, readCookies, serializeCookie, SESSION_COOKIE, setSessionCookies, userTypeOf } from './session-cookies';
import { sessionDeviceOf } from './session-device';
import { openSession, revokeSession, sessionIdOf, SESSION_TTL_SECONDS, SIGN_IN_MAX_AGE_MS } from './session-store';
import { HttpError } from '../http/errors';

/** The device id of ADR 0008's per-device limit: random, httpOnly, kept a year. */
export const DEVICE_COOKIE = 'gmap_device';
const DEVICE_ID = /^[A-Za-z0-9_-]{22}$/;
const DEVICE_COOKIE_TTL_MS = 365 * 24 * 60 * 60_000;

/** The request's device id, issuing a new one on `reply` when it has none (or a malformed one); counted from this call on. */
export function deviceIdOf(request: FastifyRequest, reply: FastifyReply, now: Date): string {
  const current = readCookies(request).get(DEVICE_COOKIE);
  if (current !== undefined && DEVICE_ID.test(current)) return current;
  const fresh = randomBytes(16).toString('base64url');
  reply.header(
    'set-cookie',
    serializeCookie(DEVICE_COOKIE, fresh, { httpOnly: true, secure: isHttps(request), expires: new Date(now.getTime() + DEVICE_COOKIE_TTL_MS) }),
  );
  return fresh;
}

export interface SessionGrant {
  userId: string;
  siteId: string;
  roles: string[];
  status: string;
  mfaEnrollmentStatus: string;
  /** ADR 0014: the card holder the session being replaced acted for (a refreshed agent's session). */
  actingForUserId?: string | null;
  /**
   * ADR 0025: what this sign-in was shown, recorded with the new session. A refresh proves nothing new and
   * passes none, so its session must confirm afresh before an owning change.
   */
  proofs?: readonly GivenProof[];
  /** ADR 0025: a refresh's chain start, so no refresh makes a sign-in outlive its 8 hours; a sign-in is now. */
  signedInAt?: Date;
}

/** ADR 0008's 200 of login and token calls, as the contract states it. */
export type SignInAnswer = SchemaType<typeof SIGN_IN_ANSWER>;

/**
 * Completes a sign-in: opens the session and sets its cookies (SESSION, gmap_authenticated,
 * gmap_user_type, a fresh XSRF-TOKEN), ends a pending challenge and, for the token call,
 * adds the access token (SPEC §3 payload) and a refresh token of `familyId` or a new family.
 * INACTIVE users sign in too: the background check then answers false (SPEC §4).
 * `opened` hears the new session's id before its cookies are set (the SAML sign-in keeps who the identity
 * provider named beside it, for single logout: docs/decisions/0028-sso-saml.md).
 */
export async function completeSignIn(
  db: Database,
  services: AuthServices,
  request: FastifyRequest,
  reply: FastifyReply,
  grant: SessionGrant,
  withTokens: { familyId?: string } | false,
  opened?: (sessionId: string) => Promise<void>,
): Promise<SignInAnswer> {
  const now = services.clock.now();
  // ADR 0017: one session per browser. The session this browser had (a previous user's, another
  // site's, or the one a refresh replaces) ends with this sign-in; a fresh sign-in also ends the
  // refresh tokens issued with it, while a refresh keeps its own family going.
  const previous = readCookies(request).get(SESSION_COOKIE);
  if (previous !== undefined) {
    await revokeSession(db, previous, now);
    if (withTokens === false || withTokens.familyId === undefined) await revokeRefreshTokens(db, { sessionToken: previous, now });
  }
  const signedInAt = grant.signedInAt ?? now;
  if (now.getTime() >= signedInAt.getTime() + SIGN_IN_MAX_AGE_MS) throw new HttpError(401, 'UNAUTHENTICATED', 'Your sign-in is over; sign in again.');
  // ADR 0025 "Sessions the holder can see": the browser and address of this sign-in, for the holder's list.
  const session = await openSession(db, grant.userId, grant.siteId, now, { device: sessionDeviceOf(request), signedInAt });
  await recordProofs(db, sessionIdOf(session.token), grant.siteId, grant.proofs ?? [], now);
  await opened?.(sessionIdOf(session.token));
  // ADR 0014: a refreshed agent's session goes on acting for the same card holder.
  if (grant.actingForUserId) await db.query('update sessions set acting_for_user_id = $2 where id = $1', [sessionIdOf(session.token), grant.actingForUserId]);
  setSessionCookies(request, reply, session, grant.roles);
  if (readCookies(request).has(LOGIN_CHALLENGE_COOKIE)) expireCookies(request, reply, [LOGIN_CHALLENGE_COOKIE]);
  const answer: SignInAnswer = {
    status: 'SIGNED_IN',
    expires_in: SESSION_TTL_SECONDS,
    user_type: userTypeOf(grant.roles),
    mfaEnrollmentStatus: grant.mfaEnrollmentStatus,
  };
  if (withTokens === false) return answer;

  const accessToken = sessionAccessToken(grant, session.expiresAt, services, now);
  const refreshToken = await issueRefreshToken(db, {
    userId: grant.userId,
    siteId: grant.siteId,
    sessionToken: session.token,
    familyId: withTokens.familyId,
    now,
    signedInAt,
  });
  return { ...answer, access_token: accessToken, refresh_token: refreshToken, token_type: 'bearer' };
}

/**
 * The access token of a session (SPEC §3 token payload), expiring with it. SPEC §4 "Alternative
 * check": an active user's authorities name the site, an inactive user's do not.
 */
export function sessionAccessToken(
  grant: Pick<SessionGrant, 'userId' | 'siteId' | 'roles' | 'status'>,
  expiresAt: Date,
  services: Pick<AuthServices, 'keys'>,
  now: Date,
): string {
  return signAccessToken(
    { sub: grant.userId, siteId: grant.siteId, authorities: sessionAuthorities(grant), exp: Math.floor(expiresAt.getTime() / 1000) },
    services.keys.token.current(now),
    now,
  );
}

export function sessionAuthorities(grant: Pick<SessionGrant, 'siteId' | 'roles' | 'status'>): string[] {
  return grant.status === 'ACTIVE' ? [...grant.roles, grant.siteId] : [...grant.roles];
}
