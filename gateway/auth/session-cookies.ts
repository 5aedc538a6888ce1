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
/** ADR 0014: a support agent's readable display data of the card holder acted for (SPEC §9). */
export const SUPPORT_DETAILS_COOKIE = 'gmap_support_details';
/** ADR 0008: a pending sign-in waiting for its passcode (10 minutes), and a device trusted for 15. */
export const LOGIN_CHALLENGE_COOKIE = 'LOGIN_CHALLENGE';
export const TRUSTED_DEVICE_COOKIE = 'TRUSTED_DEVICE';

export type UserType = 'CONCIERGE' | 'CARDHOLDER';

declare module 'fastify' {
  interface FastifyInstance {
    /** ADR 0018: true in production mode, whose public origin is https (PUBLIC_URL), whatever the last hop to the gateway. */
    readonly secureCookies: boolean;
  }
}

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

export interface CookieOptions {
  httpOnly: boolean;
  secure: boolean;
  /** None: a browser-session cookie. */
  expires?: Date;
  /**
   * `None` (only with `secure`, which browsers require of it): sent on cross-site requests too, for the one cookie
   * a cross-site POST must bring (the SAML sign-in's browser binding, docs/decisions/0028-sso-saml.md). Lax otherwise.
   */
  crossSite?: boolean;
}

export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  return [
    `${name}=${value}`,
    'Path=/',
    ...(options.expires ? [`Expires=${options.expires.toUTCString()}`] : []),
    options.crossSite && options.secure ? 'SameSite=None' : 'SameSite=Lax',
    ...(options.httpOnly ? ['HttpOnly'] : []),
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

/**
 * Whether the browser reached the gateway over HTTPS, so cookies get `Secure`: always in production
 * mode (ADR 0018: PUBLIC_URL is https there, even when a proxy speaks plain HTTP to the gateway), and
 * in development only when the request came over HTTPS, so a plain-HTTP local gateway still signs people in.
 */
export function isHttps(request: FastifyRequest): boolean {
  return request.server.secureCookies || request.protocol === 'https';
}

export function setSessionCookies(request: FastifyRequest, reply: FastifyReply, session: OpenedSession, roles: readonly string[]): void {
  const secure = isHttps(request);
  const expires = session.expiresAt;
  reply.header('set-cookie', [
    serializeCookie(SESSION_COOKIE, session.token, { httpOnly: true, secure, expires }),
    serializeCookie(AUTHENTICATED_COOKIE, 'true', { httpOnly: false, secure, expires }),
    serializeCookie(USER_TYPE_COOKIE, userTypeOf(roles), { httpOnly: false, secure, expires }),
    serializeCookie(XSRF_COOKIE, newXsrfToken(), { httpOnly: false, secure, expires }),
  ]);
}

export function newXsrfToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * Expires the session cookies (the agent's support details among them, SPEC §4/§8), for a dead session (the browser cannot clear the httpOnly one
 * itself), and replaces the XSRF token, so the signed-out page can post its next sign-in at once
 * with a value that never belonged to the session.
 */
export function clearSessionCookies(request: FastifyRequest, reply: FastifyReply): void {
  expireCookies(request, reply, [SESSION_COOKIE, AUTHENTICATED_COOKIE, USER_TYPE_COOKIE, SUPPORT_DETAILS_COOKIE]);
  reply.header('set-cookie', serializeCookie(XSRF_COOKIE, newXsrfToken(), { httpOnly: false, secure: isHttps(request) }));
}

/**
 * Logout (ADR 0008 tokens/revoke): the session cookies as above, and a pending challenge.
 * TRUSTED_DEVICE stays: it trusts the device, not the session, and ends by itself after 15
 * minutes (a sign-in on that device within it skips the passcode).
 */
export function clearAuthCookies(request: FastifyRequest, reply: FastifyReply): void {
  clearSessionCookies(request, reply);
  expireCookies(request, reply, [LOGIN_CHALLENGE_COOKIE]);
}

export function expireCookies(request: FastifyRequest, reply: FastifyReply, names: readonly string[]): void {
  const secure = isHttps(request);
  const readable = new Set([AUTHENTICATED_COOKIE, USER_TYPE_COOKIE, SUPPORT_DETAILS_COOKIE]);
  reply.header(
    'set-cookie',
    names.map((name) => serializeCookie(name, '', { httpOnly: !readable.has(name), secure, expires: new Date(0) })),
  );
}

/**
 * The signed-in user of a request, or a 401 UNAUTHENTICATED JSON error. A SESSION cookie that
 * no longer names a live session is expired on the way out, so the app stops presenting it.
 */
export async function requireSessionUser(db: Queryable, request: FastifyRequest, reply: FastifyReply, now: Date): Promise<SessionUser> {
  // Routes that are not public had their session found by the access hook (ADR 0017).
  if (request.sessionUser) return request.sessionUser;
  const token = readCookies(request).get(SESSION_COOKIE);
  const user = token ? await findSessionUser(db, token, now) : null;
  if (user) return user;
  if (token) clearSessionCookies(request, reply);
  throw new HttpError(401, 'UNAUTHENTICATED', 'Sign in to continue.');
}
