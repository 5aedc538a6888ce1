import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/database';
import { revokeRefreshTokens } from './refresh-tokens';
import { clearAuthCookies, readCookies, SESSION_COOKIE } from './session-cookies';
import { revokeSession } from './session-store';

/**
 * The sign-out both logout calls share (SPEC §7 `user-auth/tokens/revoke` and its OIDC variant `logout`, ADR 0008,
 * ADR 0015): session, refresh tokens and cookies end together.
 */
export async function endBrowserSession(
  db: Database,
  request: FastifyRequest,
  reply: FastifyReply,
  refreshToken: string | undefined,
  now: Date,
): Promise<void> {
  const sessionToken = readCookies(request).get(SESSION_COOKIE);
  await db.transaction(async (tx) => {
    if (sessionToken) await revokeSession(tx, sessionToken, now);
    await revokeRefreshTokens(tx, { sessionToken, refreshToken, now });
  });
  clearAuthCookies(request, reply);
}
