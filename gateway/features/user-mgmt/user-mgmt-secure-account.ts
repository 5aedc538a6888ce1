import type { FastifyInstance } from 'fastify';
import { SECURE_ACCOUNT_BODY } from '../../../schemas/api/request-schemas';
import type { ACCOUNT_SECURED_ANSWER } from '../../../schemas/api/response-schemas';
import type { SchemaType } from '../../../schemas/api/schema-type';
import { secureAccountWithToken } from '../../account/secure-account';
import type { AuthServices } from '../../auth/auth-services';
import type { Database } from '../../db/database';
import { HttpError } from '../../http/errors';
import { fromContract } from '../../http/route-contract';

/**
 * "This wasn't me" (docs/decisions/0021-backup-codes-and-account-notices.md "Telling the holder"): the
 * secure-account page posts the token of a notice's link here, with a button, never on loading (mail scanners
 * fetch links). Public: the holder may be signed out, or signed in on another account. Counted with the other
 * public account calls per IP before the token is looked at. An unknown, spent and expired token answer alike, so
 * the answer tells a guesser nothing; the token itself is never logged (the logger drops bodies and `token`).
 */
export async function userMgmtSecureAccountRoutes(app: FastifyInstance, options: { db: Database; auth: AuthServices }): Promise<void> {
  const { db, auth } = options;
  app.route<{ Body: SchemaType<typeof SECURE_ACCOUNT_BODY> }>({
    ...fromContract('POST /user-mgmt/user/secure-account'),
    handler: async (request): Promise<SchemaType<typeof ACCOUNT_SECURED_ANSWER>> => {
      await auth.limits.countAccountCall(request.ip);
      const secured = await secureAccountWithToken(db, request.body.token, auth.clock.now());
      if (secured === null) {
        throw new HttpError(400, 'SECURE_ACCOUNT_LINK_INVALID', 'This link is not valid, was already used or has expired.', { token: 'invalid' });
      }
      return { status: 'ACCOUNT_SECURED', email: secured.email, undone: secured.undone };
    },
  });
}
