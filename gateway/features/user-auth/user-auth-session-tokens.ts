import type { FastifyInstance } from 'fastify';
import type { USER_TOKEN_ANSWER } from '../../../schemas/api/response-schemas';
import type { SchemaType } from '../../../schemas/api/schema-type';
import type { AuthServices } from '../../auth/auth-services';
import { userTypeOf, requireSessionUser } from '../../auth/session-cookies';
import { completeSignIn, sessionAccessToken, sessionAuthorities, type SignInAnswer } from '../../auth/sign-in-answer';
import type { Database } from '../../db/database';
import { HttpError } from '../../http/errors';
import { fromContract } from '../../http/route-contract';

/** docs/decisions/0022-declared-calls.md: the answer of `GET user-auth/auth/user-token`, as the contract states it. */
type UserTokenAnswer = SchemaType<typeof USER_TOKEN_ANSWER>;

interface AccountState {
  roles: string[];
  status: string;
  mfa_enrollment_status: string;
}

/**
 * SPEC §7's declared `user-auth/auth/user-token` and `auth/refresh-token`, for the session the SESSION
 * cookie names (SPEC §4 token model, ADR 0008); docs/decisions/0022-declared-calls.md fixes them.
 * - `GET user-auth/auth/user-token`: the session's access token (SPEC §3 payload, expiring with the
 *   session), its remaining `expires_in`, user type, site and authorities; 401 without a session.
 * - `POST user-auth/auth/refresh-token` (no body): the session is replaced as `oauth/token`
 *   grant_type=refresh_token replaces it (`completeSignIn`): new SESSION cookie, new access and
 *   refresh tokens, the old session and its refresh tokens revoked. The session cookie is the
 *   credential; a refresh token is never read from the body.
 * Both are open while a breached password must be replaced: the app needs them to stay signed in.
 */
export async function userAuthSessionTokenRoutes(app: FastifyInstance, options: { db: Database; auth: AuthServices }): Promise<void> {
  const { db, auth } = options;
  // The refresh carries nothing; whatever body it has, of any type, is read within the limit and dropped.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));

  const accountOf = async (userId: string): Promise<AccountState> => {
    const found = await db.query<AccountState>('select roles, status, mfa_enrollment_status from users where id = $1', [userId]);
    const row = found.rows[0];
    if (!row) throw new HttpError(401, 'UNAUTHENTICATED', 'Sign in to continue.');
    return row;
  };

  app.route({
    ...fromContract('GET /user-auth/auth/user-token', { openWhilePasswordChangeRequired: true }),
    handler: async (request, reply): Promise<UserTokenAnswer> => {
      const now = auth.clock.now();
      const session = await requireSessionUser(db, request, reply, now);
      const account = await accountOf(session.userId);
      const grant = { userId: session.userId, siteId: session.siteId, roles: account.roles, status: account.status };
      return {
        access_token: sessionAccessToken(grant, session.expiresAt, auth, now),
        token_type: 'bearer',
        expires_in: Math.max(0, Math.floor((session.expiresAt.getTime() - now.getTime()) / 1000)),
        user_type: userTypeOf(account.roles),
        siteId: session.siteId,
        authorities: sessionAuthorities(grant),
      };
    },
  });

  app.route({
    ...fromContract('POST /user-auth/auth/refresh-token', { openWhilePasswordChangeRequired: true }),
    handler: async (request, reply): Promise<SignInAnswer> => {
      // Counted like the token call it stands beside (ADR 0008 "Limits").
      await auth.limits.countSignInCall(request.ip);
      const session = await requireSessionUser(db, request, reply, auth.clock.now());
      const account = await accountOf(session.userId);
      // One refresh per session: of two racing calls with the same cookie, only the one that ends it goes on.
      const ended = await db.query('update sessions set revoked_at = $2 where id = $1 and revoked_at is null returning id', [
        session.sessionId,
        auth.clock.now(),
      ]);
      if (ended.rows.length === 0) throw new HttpError(401, 'UNAUTHENTICATED', 'Sign in to continue.');
      return completeSignIn(
        db,
        auth,
        request,
        reply,
        {
          userId: session.userId,
          siteId: session.siteId,
          roles: account.roles,
          status: account.status,
          mfaEnrollmentStatus: account.mfa_enrollment_status,
          actingForUserId: session.actingForUserId,
          signedInAt: session.signedInAt,
        },
        {},
      );
    },
  });
}
