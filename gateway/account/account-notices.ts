import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthServices } from '../auth/auth-services';
import type { Database, Queryable } from '../db/database';
import type { Fixtures } from '../fixtures/load-fixtures';
import type { JobQueue } from '../jobs/job-queue';
import type { OutgoingMessage } from '../mail/mailer';
import type { LocalisedTexts } from '../mail/mail-texts';
import { recipientByEmail, recipientById, type Recipient } from '../mail/recipient';
import { accountLink, publicOriginOf } from './account-mail';

/**
 * Account notices (docs/decisions/0021-recovery-codes-and-account-notices.md): the person hears, in
 * their language, when their password changes, sign-in to their account locks, the account is
 * deleted, or a support agent changed something for them (ADR 0014). Each is an ADR 0012 job
 * (`account-notice`), mailed after the answer, so it never slows or fails the call it reports. A
 * notice names what happened and when, never a password, code or token.
 */
export type AccountNoticeJob =
  | { notice: 'password-changed'; userId: string; siteId: string; origin: string; at: string }
  /** Keyed by the typed address: every lock is queued alike, and only the job knows whether an account has it (ADR 0012). */
  | { notice: 'account-locked'; email: string; siteId: string; origin: string; until: string }
  /** The account is gone when the job runs: where and in which language were read before the deletion. */
  | { notice: 'account-deleted'; email: string; locale: string; siteId: string; at: string }
  /** One per saved change: `attributeKeys` the keys it changed (never their values); empty for the profile copy. */
  | { notice: 'agent-acted'; userId: string; siteId: string; attributeKeys: readonly string[]; at: string };

/** Queues a notice (inside the caller's transaction when `on` is one) and runs it once `reply` has gone out. */
export async function queueAccountNotice(jobs: JobQueue, reply: FastifyReply, job: AccountNoticeJob, on?: Queryable): Promise<void> {
  await jobs.enqueue('account-notice', { ...job }, on);
  jobs.wakeAfterAnswer(reply);
}

/** Where the links of a notice point: PUBLIC_URL, else the origin of the call (as ADR 0009's mails). */
export function noticeOrigin(request: FastifyRequest, services: AuthServices): string {
  return publicOriginOf(request, services.publicUrl);
}

/** The `account-notice` job: the message in the recipient's locale, or nothing for an address without an account. */
export async function sendAccountNotice(db: Database, fixtures: Fixtures, services: AuthServices, job: AccountNoticeJob): Promise<void> {
  const recipient = await recipientOf(db, job);
  if (recipient === null) return;
  const texts = services.mailTexts(recipient.locale);
  const site = (fixtures.sites.get(job.siteId) ?? fixtures.defaultSite).config.name;
  await services.mailer.send(noticeMessage(texts, recipient.email, site, job));
}

function recipientOf(db: Database, job: AccountNoticeJob): Promise<Recipient | null> {
  switch (job.notice) {
    case 'account-deleted':
      return Promise.resolve({ userId: '', email: job.email, locale: job.locale });
    case 'account-locked':
      return recipientByEmail(db, job.email, job.siteId);
    default:
      return recipientById(db, job.userId, job.siteId);
  }
}

function noticeMessage(texts: LocalisedTexts, to: string, site: string, job: AccountNoticeJob): OutgoingMessage {
  const mail = (name: string, values: Record<string, string>): OutgoingMessage => ({
    channel: 'email',
    to,
    subject: texts.text(`${name}.subject`),
    text: texts.text(`${name}.text`, { site, ...values }),
  });
  switch (job.notice) {
    case 'password-changed':
      return mail('passwordChanged', {
        time: texts.moment(new Date(job.at)),
        recoveryLink: accountLink({ origin: job.origin, siteId: job.siteId, locale: texts.locale }, 'recovery'),
      });
    case 'account-locked':
      return mail('accountLocked', {
        until: texts.moment(new Date(job.until)),
        recoveryLink: accountLink({ origin: job.origin, siteId: job.siteId, locale: texts.locale }, 'recovery'),
      });
    case 'account-deleted':
      return mail('accountDeleted', { time: texts.moment(new Date(job.at)) });
    case 'agent-acted': {
      const changes =
        job.attributeKeys.length === 0 ? texts.text('agentActed.profile') : job.attributeKeys.map((key) => texts.fieldLabel(key) ?? key).join(', ');
      return mail('agentActed', { time: texts.moment(new Date(job.at)), changes });
    }
  }
}
