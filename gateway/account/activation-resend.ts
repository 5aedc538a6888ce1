import type { AuthServices } from '../auth/auth-services';
import type { Database } from '../db/database';
import { recipientByEmail } from '../mail/recipient';
import { activationMail } from './account-mail';
import { issueActivationToken } from './activation-tokens';

/** ADR 0012 `activation-email` job payload. */
export interface ActivationMailJob {
  email: string;
  siteId: string;
  locale: string;
  origin: string;
}

/**
 * The `activation-email` job (ADR 0009 "Activation"): only an inactive account gets a new link, and
 * its previous link stops working; an active or unknown address gets nothing.
 */
export async function mailFreshActivationLink(db: Database, services: AuthServices, job: ActivationMailJob): Promise<void> {
  const now = services.clock.now();
  const token = await db.transaction(async (tx) => {
    const found = await tx.query<{ id: string }>(`select id from users where email = $1 and status = 'INACTIVE' for update`, [job.email]);
    const userId = found.rows[0]?.id;
    return userId === undefined ? null : issueActivationToken(tx, userId, now);
  });
  if (token === null) return;
  // The account's own language; the page the link opens keeps the locale the person asked from.
  const recipient = await recipientByEmail(db, job.email, job.siteId);
  const texts = services.mailTexts(recipient?.locale ?? job.locale);
  await services.mailer.send(activationMail(texts, job.email, { origin: job.origin, siteId: job.siteId, locale: job.locale }, token));
}
