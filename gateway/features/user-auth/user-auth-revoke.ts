import type { FastifyInstance } from 'fastify';
import type { AuthServices } from '../../auth/auth-services';
import { endBrowserSession } from '../../auth/end-browser-session';
import type { Database } from '../../db/database';
import { fromContract } from '../../http/route-contract';

/**
 * SPEC §7 `POST user-auth/tokens/revoke` (optional `?refresh_token=`, body "null"), ADR 0008: revokes
 * the session, every refresh-token family issued with it and the family of the given token, then
 * expires the auth cookies (`clearAuthCookies`). 200 even when already signed out, so logout always completes.
 */
export async function userAuthRevokeRoutes(app: FastifyInstance, options: { db: Database; auth: AuthServices }): Promise<void> {
  const { db, auth } = options;
  // The body carries nothing (§7 "text body null"); whatever its type, it is read within the limit and dropped.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
  app.route<{ Querystring: { refresh_token?: string } }>({
    ...fromContract('POST /user-auth/tokens/revoke'),
    handler: async (request, reply) => {
      await endBrowserSession(db, request, reply, request.query.refresh_token || undefined, auth.clock.now());
      return { revoked: true };
    },
  });
}
