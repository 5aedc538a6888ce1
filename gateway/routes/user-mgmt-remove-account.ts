import type { FastifyInstance } from 'fastify';
import { featureConfigOf } from '../../schemas/site-config/types';
import { queueAccountNotice } from '../account/account-notices';
import type { AuthServices } from '../auth/auth-services';
import { clearAuthCookies, requireSessionUser } from '../auth/session-cookies';
import type { Database } from '../db/database';
import type { Fixtures } from '../fixtures/load-fixtures';
import { HttpError } from '../http/errors';
import type { JobQueue } from '../jobs/job-queue';
import { recipientById } from '../mail/recipient';

/**
 * SPEC §7 `POST user-mgmt/user/remove-account`, ADR 0009 "Deletion": deletes the signed-in user;
 * every table keyed by the user cascades (site attributes, cards, sessions, refresh tokens, codes,
 * TOTP, activation tokens, password history), and the auth cookies are cleared as at logout.
 * Refused with 403 DELETE_NOT_ALLOWED on a site whose `allow_delete_profile` is "false".
 */
export async function userMgmtRemoveAccountRoutes(app: FastifyInstance, options: { db: Database; fixtures: Fixtures; auth: AuthServices; jobs: JobQueue }): Promise<void> {
  const { db, fixtures, auth, jobs } = options;
  // An empty body (ADR 0009); whatever is sent, of any type, is read within the limit and dropped.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));

  app.post('/user-mgmt/user/remove-account', { config: { access: 'cardholder' } }, async (request, reply) => {
    const user = await requireSessionUser(db, request, reply, auth.clock.now());
    const site = fixtures.sites.get(user.siteId)?.config ?? fixtures.defaultSite.config;
    if (featureConfigOf(site, 'allow_delete_profile').allow_delete_profile === 'false') {
      throw new HttpError(403, 'DELETE_NOT_ALLOWED', 'This site does not allow deleting your profile.');
    }
    // Read before the deletion: the notice is written after it, to an account that is gone.
    const recipient = await recipientById(db, user.userId, user.siteId);
    await db.transaction(async (tx) => {
      await tx.query('delete from users where id = $1', [user.userId]);
      if (recipient) await queueAccountNotice(jobs, reply, { notice: 'account-deleted', email: recipient.email, locale: recipient.locale, siteId: user.siteId, at: auth.clock.now().toISOString() }, tx);
    });
    clearAuthCookies(request, reply);
    return { status: 'DELETED' };
  });
}
