import type { AuthServices } from '../auth/auth-services';
import type { Database } from '../db/database';
import type { Fixtures } from '../site-files/load-fixtures';
import { recipientByEmail } from '../mail/recipient';
import { activationMail, bankNameOf } from './account-mail';
import { activationTokenOfJob, issueActivationToken } from './activation-tokens';

/** ADR 0012 `activation-email` job payload. */
export interface ActivationMailJob {
  email: string;
  siteId: string;
  locale: string;
  origin: string;
}

/**
 * The `activation-email` job `jobId` (ADR 0009 "Activation"): only an inactive account gets a new link, and
 * its previous links stop working; an active or unknown address gets nothing. The link is the job's own
 * (ADR 0012 "A job run twice"): a run repeated after a crash between the send and the job's deletion
 * mails the same link again, which still works, instead of a second one that would void the first.
 */
export async function mailFreshActivationLink(db: Database, fixtures: Fixtures, services: AuthServices, job: ActivationMailJob, jobId: string): Promise<void> {
  const now = services.clock.now();
  const token = await db.transaction(async (tx) => {
    const found = await tx.query<{ id: string }>(`select id from users where email = $1 and status = 'INACTIVE' for update`, [job.email]);
    const userId = found.rows[0]?.id;
    return userId === undefined ? null : issueActivationToken(tx, userId, now, await activationTokenOfJob(tx, services.keys.token, now, userId, jobId));
  });
  if (token === null) return;
  // The account's own language; the page the link opens keeps the locale the person asked from.
  const recipient = await recipientByEmail(db, job.email, job.siteId);
  const texts = services.mailTexts(recipient?.locale ?? job.locale);
  const target = { origin: job.origin, siteId: job.siteId, locale: job.locale };
  await services.mailer.send(activationMail(texts, job.email, target, bankNameOf(fixtures, job.siteId), token));
}
