import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors';
import type { Queryable } from '../db/database';
import { findSessionUser, type OpenedSession, type SessionUser } from './session-store';

/**
 * The cookies of a signed-in browser (SPEC §3 "session cookies (including an XSRF cookie)", §9
 * storage names): the httpOnly SESSION token, the readable `gmap_authenticated=true` the app's
 * auth machine looks for (§4), `gmap_user_type` expiring with the session (§4), and the
 * `XSRF-TOKEN` the app echoes in `X-XSRF-TOKEN` (§7).
 */
export const SESSION_COOKIE = 'SESSION';
export const AUTHENTICATED_COOKIE = 'gmap_authenticated';
export const USER_TYPE_COOKIE = 'gmap_user_type';
export const XSRF_COOKIE = 'XSRF-TOKEN';

export type UserType = 'CONCIERGE' | 'CARDHOLDER';

/** SPEC §4: ROLE_CONCIERGE gives CONCIERGE, otherwise CARDHOLDER. */
export function userTypeOf(roles: readonly string[]): UserType {
  return roles.includes('ROLE_CONCIERGE') ? 'CONCIERGE' : 'CARDHOLDER';
}

/** The request's cookies by name (first value wins); values are not decoded: ours are URL-safe. */
export function readCookies(request: FastifyRequest): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator <= 0) continue;
    const name = pair.slice(0, separator).trim();
    if (!cookies.has(name)) cookies.set(name, pair.slice(separator + 1).trim());
  }
  return cookies;
}

interface CookieOptions {
  httpOnly: boolean;
  secure: boolean;
  expires: Date;
}

function serializeCookie(name: string, value: string, options: CookieOptions): string {
  return [
    `${name}=${value}`,
    'Path=/',
    `Expires=${options.expires.toUTCString()}`,
    'SameSite=Lax',
    ...(options.httpOnly ? ['HttpOnly'] : []),
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

/** Secure cookies only over HTTPS, so a plain-HTTP local gateway still signs people in. */
function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

export function setSessionCookies(request: FastifyRequest, reply: FastifyReply, session: OpenedSession, roles: readonly string[]): void {
  const secure = isHttps(request);
  const expires = session.expiresAt;
  reply.header('set-cookie', [
    serializeCookie(SESSION_COOKIE, session.token, { httpOnly: true, secure, expires }),
    serializeCookie(AUTHENTICATED_COOKIE, 'true', { httpOnly: false, secure, expires }),
    serializeCookie(USER_TYPE_COOKIE, userTypeOf(roles), { httpOnly: false, secure, expires }),
    serializeCookie(XSRF_COOKIE, randomBytes(24).toString('base64url'), { httpOnly: false, secure, expires }),
  ]);
}

/** Expires every session cookie, for a dead session: the browser cannot clear the httpOnly one itself. */
export function clearSessionCookies(request: FastifyRequest, reply: FastifyReply): void {
  const secure = isHttps(request);
  const expires = new Date(0);
  reply.header(
    'set-cookie',
    [SESSION_COOKIE, AUTHENTICATED_COOKIE, USER_TYPE_COOKIE, XSRF_COOKIE].map((name) =>
      serializeCookie(name, '', { httpOnly: name === SESSION_COOKIE, secure, expires }),
    ),
  );
}

/**
 * Double-submit check for a state-changing call: the X-XSRF-TOKEN header must equal the XSRF-TOKEN
 * cookie (SPEC §7), which a page on another origin can neither read nor set.
 */
export function requireXsrfToken(request: FastifyRequest): void {
  const cookie = readCookies(request).get(XSRF_COOKIE);
  const header = request.headers['x-xsrf-token'];
  if (cookie === undefined || cookie === '' || header !== cookie) {
    throw new HttpError(403, 'XSRF_TOKEN_MISMATCH', 'The X-XSRF-TOKEN header must echo the XSRF-TOKEN cookie.');
  }
}

/**
 * The signed-in user of a request, or a 401 UNAUTHENTICATED JSON error. A SESSION cookie that
 * no longer names a live session is expired on the way out, so the app stops presenting it.
 */
export async function requireSessionUser(db: Queryable, request: FastifyRequest, reply: FastifyReply): Promise<SessionUser> {
  const token = readCookies(request).get(SESSION_COOKIE);
  const user = token ? await findSessionUser(db, token) : null;
  if (user) return user;
  if (token) clearSessionCookies(request, reply);
  throw new HttpError(401, 'UNAUTHENTICATED', 'Sign in to continue.');
}
