import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthServices } from '../auth/auth-services';
import { maskEmail } from '../auth/masking';
import { passcodePhoneFor, passcodePhoneOf } from '../auth/passcode-delivery';
import { TRUSTED_DEVICE_TTL_MS } from '../auth/password-sign-in';
import type { Database, Queryable } from '../db/database';
import type { Fixtures } from '../site-files/load-fixtures';
import type { JobQueue } from '../jobs/job-queue';
import type { MessageChannel, OutgoingMessage } from '../mail/mailer';
import type { LocalisedTexts } from '../mail/mail-texts';
import { recipientByEmail, recipientById, type Recipient } from '../mail/recipient';
import { accountLink, publicOriginOf } from './account-mail';
import { issueSecureAccountToken, SECURE_ACCOUNT_ROUTE, SECURE_ACCOUNT_TOKEN_TTL_MS } from './secure-account';

/**
 * Account notices (docs/decisions/0021-backup-codes-and-account-notices.md): the person hears, in
 * their language, when their password changes, sign-in to their account locks, the account is
 * deleted, or a support agent changed something for them (ADR 0014); and ("Telling the holder") of every
 * change of a contact point, authenticator, backup codes, proved e-mail alias or trusted device, and of
 * every sign-in from a device new to the account. Each is an ADR 0012 job (`account-notice`), mailed
 * after the answer, so it never slows or fails the call it reports. It goes to the contact points the
 * account had before the change: the account's address (never a new alias), and for a new phone the old
 * phone too. A notice names what happened and when, never a password or code; the notices of a change
 * carry the "this wasn't me" link, whose single-use token the job makes (gateway/account/secure-account.ts).
 */

/** What every notice of a change to the account says: who, on which site, where links point, and when. */
export interface ChangeNotice {
  userId: string;
  siteId: string;
  origin: string;
  at: string;
}

/** The notices of ADR 0021 "Telling the holder" that say only what happened and when. */
export type PlainChangeNotice = 'authenticator-enrolled' | 'authenticator-removed' | 'backup-codes-renewed' | 'device-trusted' | 'new-device-sign-in';

export type AccountNoticeJob =
  | ({ notice: 'password-changed' } & ChangeNotice)
  /** Keyed by the typed address: every lock is queued alike, and only the job knows whether an account has it (ADR 0012). */
  | { notice: 'account-locked'; email: string; siteId: string; origin: string; until: string }
  /** The account is gone when the job runs: where and in which language were read before the deletion. */
  | { notice: 'account-deleted'; email: string; locale: string; siteId: string; at: string }
  /** One per saved change: `attributeKeys` the keys it changed (never their values), at least one. */
  | { notice: 'agent-acted'; userId: string; siteId: string; attributeKeys: readonly string[]; at: string }
  | ({ notice: PlainChangeNotice } & ChangeNotice)
  /** `alias`: the proved address, masked (`a***@example.com`) before it is stored in the job. */
  | ({ notice: 'alias-proved'; alias: string } & ChangeNotice)
  /**
   * The phone of the site changed: `newPhoneEnd` its last two digits (null when it was removed), never the whole
   * number. Mailed to the account's address, or, with `textTo`, texted to the phone the account had before.
   */
  | ({ notice: 'phone-changed'; newPhoneEnd: string | null; textTo?: string } & ChangeNotice);

/** Queues a notice (inside the caller's transaction when `on` is one) and runs it once `reply` has gone out. */
export async function queueAccountNotice(jobs: JobQueue, reply: FastifyReply, job: AccountNoticeJob, on?: Queryable): Promise<void> {
  await jobs.enqueue('account-notice', { ...job }, on);
  jobs.wakeAfterAnswer(reply);
}

/** Where the links of a notice point: PUBLIC_URL, else the origin of the call (as ADR 0009's mails). */
export function noticeOrigin(request: FastifyRequest, services: AuthServices): string {
  return publicOriginOf(request, services.publicUrl);
}

/** The fields of a notice of a change `userId` made now on `siteId`, with links pointing where the call came to. */
export function changeNoticeOf(request: FastifyRequest, services: AuthServices, userId: string, siteId: string): ChangeNotice {
  return { userId, siteId, origin: noticeOrigin(request, services), at: services.clock.now().toISOString() };
}

/**
 * A save of the site's attributes, inside its transaction: when it changed the phone (as a text would dial it, so
 * a number typed another way is no change), the account's address hears it, and so does the phone passcodes went
 * to until now (`passcodePhoneFor`: the site's proved phone, else another site's; read before
 * `holdNewPhoneForProof` changes it). The new number is named by its last two digits only.
 */
export async function queuePhoneChangeNotices(
  tx: Queryable,
  jobs: JobQueue,
  reply: FastifyReply,
  change: ChangeNotice,
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): Promise<void> {
  const newPhone = passcodePhoneOf(after);
  if (passcodePhoneOf(before) === newPhone) return;
  const job = { notice: 'phone-changed', ...change, newPhoneEnd: newPhone === null ? null : newPhone.slice(-2) } as const;
  await queueAccountNotice(jobs, reply, job, tx);
  const textTo = await passcodePhoneFor(tx, change.userId, change.siteId);
  if (textTo !== null && textTo !== newPhone) await queueAccountNotice(jobs, reply, { ...job, textTo }, tx);
}

/** The notices that carry the "this wasn't me" link: every one of a change the holder may not have made. */
const CHANGE_NOTICES: ReadonlySet<AccountNoticeJob['notice']> = new Set([
  'password-changed',
  'authenticator-enrolled',
  'authenticator-removed',
  'backup-codes-renewed',
  'alias-proved',
  'phone-changed',
  'device-trusted',
  'new-device-sign-in',
]);

type ChangeNoticeJob = Extract<AccountNoticeJob, ChangeNotice>;

function isChangeNotice(job: AccountNoticeJob): job is ChangeNoticeJob {
  return CHANGE_NOTICES.has(job.notice);
}

/**
 * The `account-notice` job: the message in the recipient's locale, or nothing for an address without an account.
 * A notice of a change gets its own secure-account token now, so the token is in the message alone; one texted
 * to a phone gets one that never names the account's address.
 */
export async function sendAccountNotice(db: Database, fixtures: Fixtures, services: AuthServices, job: AccountNoticeJob): Promise<void> {
  const recipient = await recipientOf(db, job);
  if (recipient === null) return;
  const texts = services.mailTexts(recipient.locale);
  const site = (fixtures.sites.get(job.siteId) ?? fixtures.defaultSite).config.name;
  const textTo = job.notice === 'phone-changed' ? job.textTo : undefined;
  const delivery: NoticeDelivery = { channel: textTo === undefined ? 'email' : 'sms', to: textTo ?? recipient.email, site, secureLink: '' };
  if (isChangeNotice(job)) {
    const token = await issueSecureAccountToken(db, recipient.userId, services.clock.now(), delivery.channel === 'email');
    delivery.secureLink = secureAccountLink(job, texts.locale, token);
  }
  await services.mailer.send(noticeMessage(texts, delivery, job));
}

/** `/{issuer}/{locale}/account/secure-account?token=…` on the site the change was made on, in the reader's locale. */
export function secureAccountLink(job: Pick<ChangeNotice, 'origin' | 'siteId'>, locale: string, token: string): string {
  return accountLink({ origin: job.origin, siteId: job.siteId, locale }, SECURE_ACCOUNT_ROUTE, { token });
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

/** Where a notice goes and what it names: `secureLink` is the "this wasn't me" link of a change's notice. */
export interface NoticeDelivery {
  channel: MessageChannel;
  to: string;
  /** The bank's name (the site's `name`). */
  site: string;
  secureLink: string;
}

/** The mail text key of each plain change notice. */
const PLAIN_CHANGE_TEXTS: Readonly<Record<PlainChangeNotice, string>> = {
  'authenticator-enrolled': 'authenticatorEnrolled',
  'authenticator-removed': 'authenticatorRemoved',
  'backup-codes-renewed': 'backupCodesRenewed',
  'device-trusted': 'deviceTrusted',
  'new-device-sign-in': 'newDeviceSignIn',
};

/** A notice written in the reader's texts (exported for tests/gateway/mail/mail-texts.test.ts). */
export function noticeMessage(texts: LocalisedTexts, delivery: NoticeDelivery, job: AccountNoticeJob): OutgoingMessage {
  const { channel, to, site, secureLink } = delivery;
  const message = (name: string, text: string): OutgoingMessage => ({ channel, to, subject: texts.text(`${name}.subject`), text });
  const mail = (name: string, values: Record<string, string>): OutgoingMessage => message(name, texts.text(`${name}.text`, { site, ...values }));
  // Every notice of a change ends alike: what the link does, and how long it works. `textKey`: its own text, when
  // two notices share a subject.
  const withSecureLink = (name: string, values: Record<string, string>, textKey = `${name}.text`): OutgoingMessage => {
    const footer = texts.text('secureAccount.text', { secureLink, days: SECURE_ACCOUNT_TOKEN_TTL_MS / 86_400_000 });
    return message(name, `${texts.text(textKey, { site, ...values })}\n\n${footer}`);
  };
  switch (job.notice) {
    case 'password-changed':
      return withSecureLink('passwordChanged', { time: texts.moment(new Date(job.at)) });
    case 'account-locked':
      return mail('accountLocked', {
        until: texts.moment(new Date(job.until)),
        recoveryLink: accountLink({ origin: job.origin, siteId: job.siteId, locale: texts.locale }, 'recovery'),
      });
    case 'account-deleted':
      return mail('accountDeleted', { time: texts.moment(new Date(job.at)) });
    case 'agent-acted': {
      const changes = job.attributeKeys.map((key) => texts.fieldLabel(key) ?? key).join(', ');
      return mail('agentActed', { time: texts.moment(new Date(job.at)), changes });
    }
    case 'alias-proved':
      return withSecureLink('aliasProved', { time: texts.moment(new Date(job.at)), alias: job.alias });
    case 'phone-changed': {
      const time = texts.moment(new Date(job.at));
      // A removed phone has no digits to name; both share the subject.
      const variant = job.newPhoneEnd === null ? 'phoneRemoved' : 'phoneChanged';
      const values: Record<string, string> = job.newPhoneEnd === null ? { time } : { time, lastDigits: job.newPhoneEnd };
      // A text to the old phone is short: what happened, and the link.
      if (channel === 'sms') return message('phoneChanged', texts.text(`${variant}.sms`, { site, secureLink, ...values }));
      return withSecureLink('phoneChanged', values, `${variant}.text`);
    }
    default:
      // `minutes`: how long a trusted device skips the passcode (ADR 0008); the other texts have no such placeholder.
      return withSecureLink(PLAIN_CHANGE_TEXTS[job.notice], { time: texts.moment(new Date(job.at)), minutes: String(TRUSTED_DEVICE_TTL_MS / 60_000) });
  }
}

/** A proved address as a notice names it: enough to recognise, not the whole address (ADR 0008 masking). */
export function aliasForNotice(alias: string): string {
  return maskEmail(alias);
}
