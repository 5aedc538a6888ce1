import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { AuthServices } from '../auth/auth-services';
import { maskPhone } from '../auth/masking';
import { checkHeldCode, CODE_TTL_MS, codeHash, MAX_CODE_ATTEMPTS, newCode, type HeldCode } from '../auth/one-time-codes';
import { passcodePhoneOf } from '../auth/passcode-delivery';
import type { Database, Queryable } from '../db/database';
import type { Fixtures } from '../site-files/load-fixtures';
import { HttpError } from '../http/errors';
import type { JobQueue } from '../jobs/job-queue';
import { DEFAULT_LOCALE } from '../locale';
import { recipientById } from '../mail/recipient';
import { phoneProofText } from './account-mail';
import { queuePhoneChangeNotices, type ChangeNotice } from './account-notices';
import { PASSCODE_PHONE_CHANGE, passcodePhoneChange } from './provisional-phone';

/**
 * docs/decisions/0025-fresh-proof.md "A new phone is proved before it counts": sign-in and recovery codes are
 * texted to the site's `passcode_phone`, the number its holder proved, never to whatever the `phone` attribute
 * says. A save that changes the attribute (itself behind fresh proof) leaves the passcode phone as it was and
 * holds the new number in `phone_proofs`; the `phone-proof` job texts a code to it after the answer, and the
 * holder's `POST user-mgmt/user/phone-proof` with that code makes it the passcode phone. Whoever holds a session
 * for a minute can at most write a number into the profile: every code still goes to the phone the holder had.
 */

/** The ADR 0012 `phone-proof` job: the account, the site, and the number (as dialled) waiting for its code. */
export interface PhoneProofJob {
  userId: string;
  siteId: string;
  phone: string;
}

/** What the phone-proof calls answer: the number waiting for its code, masked, or null when none waits. */
export interface PhoneProofState {
  pendingPhone: string | null;
}

/**
 * What a save of a site's attributes does about its phone, inside its transaction (ADR 0010 `AfterSave`): the
 * notices to the contact points the account had (ADR 0021 "Telling the holder"), then the new number held for
 * its code.
 */
export function phoneSaved(jobs: JobQueue, reply: FastifyReply, change: ChangeNotice) {
  return async (tx: Queryable, before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): Promise<void> => {
    await queuePhoneChangeNotices(tx, jobs, reply, change, before, after);
    await holdNewPhoneForProof(tx, jobs, reply, { userId: change.userId, siteId: change.siteId, now: new Date(change.at) }, before, after);
  };
}

/**
 * Inside a save's transaction, once it changed the `phone` attribute (ADR 0010 `AfterSave`): a number other
 * than the passcode phone waits for its code, and its job is queued beside the save; the passcode phone typed
 * again ends the wait; a removed phone stops texts to this site's number at once (removing takes nothing from
 * the holder that they did not ask to lose, and the save needed fresh proof).
 */
async function holdNewPhoneForProof(
  tx: Queryable,
  jobs: JobQueue,
  reply: FastifyReply,
  where: { userId: string; siteId: string; now: Date },
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): Promise<void> {
  const next = passcodePhoneOf(after);
  if (next === passcodePhoneOf(before)) return;
  const { userId, siteId, now } = where;
  if (next === null) {
    await tx.query(`update user_sites set ${PASSCODE_PHONE_CHANGE} where user_id = $1 and site_id = $2`, [userId, siteId, ...passcodePhoneChange(null, now)]);
    await tx.query('delete from phone_proofs where user_id = $1 and site_id = $2', [userId, siteId]);
    return;
  }
  const stored = await tx.query<{ passcode_phone: string | null }>('select passcode_phone from user_sites where user_id = $1 and site_id = $2', [
    userId,
    siteId,
  ]);
  if (stored.rows[0]?.passcode_phone === next) {
    await tx.query('delete from phone_proofs where user_id = $1 and site_id = $2', [userId, siteId]);
    return;
  }
  // A code texted to an earlier new number never proves this one: the row is replaced whole.
  await tx.query(
    `insert into phone_proofs (user_id, site_id, phone, created_at) values ($1, $2, $3, $4)
     on conflict (user_id, site_id) do update set phone = excluded.phone, created_at = excluded.created_at,
       proof_id = null, proof_hash = null, proof_expires_at = null, proof_attempts = 0`,
    [userId, siteId, next, now],
  );
  const job: PhoneProofJob = { userId, siteId, phone: next };
  await jobs.enqueue('phone-proof', { ...job }, tx);
  jobs.wakeAfterAnswer(reply);
}

/**
 * The `phone-proof` job: a fresh code stored (replacing the last, attempts counted again) and texted to the
 * number, in the holder's language, naming the bank. Nothing when the number no longer waits (proved, replaced,
 * removed, or the account deleted since).
 */
export async function sendPhoneProof(db: Database, fixtures: Fixtures, services: AuthServices, job: PhoneProofJob): Promise<void> {
  const now = services.clock.now();
  const proofId = randomUUID();
  const code = newCode();
  const stored = await db.query(
    `update phone_proofs set proof_id = $4, proof_hash = $5, proof_expires_at = $6, proof_attempts = 0
      where user_id = $1 and site_id = $2 and phone = $3 returning 1`,
    [job.userId, job.siteId, job.phone, proofId, codeHash(services.keys.token.current(now).secret, proofId, code), new Date(now.getTime() + CODE_TTL_MS)],
  );
  if (stored.rows.length === 0) return;
  const site = (fixtures.sites.get(job.siteId) ?? fixtures.defaultSite).config.name;
  const reader = await recipientById(db, job.userId, job.siteId);
  await services.mailer.send(phoneProofText(services.mailTexts(reader?.locale ?? DEFAULT_LOCALE), job.phone, site, code, CODE_TTL_MS / 60_000));
}

interface PendingPhone extends HeldCode {
  phone: string;
}

async function pendingPhoneOf(db: Queryable, userId: string, siteId: string): Promise<PendingPhone | null> {
  const found = await db.query<PendingPhone>('select phone, proof_id, proof_hash, proof_expires_at from phone_proofs where user_id = $1 and site_id = $2', [
    userId,
    siteId,
  ]);
  return found.rows[0] ?? null;
}

/** `GET user-mgmt/user/phone-proof`: the number of the session's site waiting for its code, masked. */
export async function phoneProofStateOf(db: Queryable, userId: string, siteId: string): Promise<PhoneProofState> {
  const pending = await pendingPhoneOf(db, userId, siteId);
  return { pendingPhone: pending === null ? null : maskPhone(pending.phone) };
}

/** `POST user-mgmt/user/phone-proof/resend`: the job again for the number waiting (409 PHONE_NOT_PENDING without one). */
export async function resendPhoneProof(db: Database, jobs: JobQueue, reply: FastifyReply, userId: string, siteId: string): Promise<PhoneProofState> {
  const pending = await pendingPhoneOf(db, userId, siteId);
  if (pending === null) throw notPending();
  const job: PhoneProofJob = { userId, siteId, phone: pending.phone };
  await jobs.enqueue('phone-proof', { ...job });
  jobs.wakeAfterAnswer(reply);
  return { pendingPhone: maskPhone(pending.phone) };
}

/**
 * `POST user-mgmt/user/phone-proof`: the number waiting on the session's site becomes its passcode phone when
 * `passcode` is the code texted to it (ADR 0008 rules: 10 minutes, 5 attempts, single use; both updates are
 * conditional on the code's id, so two racing calls cannot use one code twice or pass the attempts).
 */
export async function confirmPhoneProof(
  db: Database,
  services: AuthServices,
  request: { userId: string; siteId: string; passcode: string },
): Promise<PhoneProofState> {
  const { userId, siteId, passcode } = request;
  const now = services.clock.now();
  const pending = await pendingPhoneOf(db, userId, siteId);
  if (pending === null) throw notPending();
  // No code yet (the job has not run), or a spent or expired one: a new one is `resend`.
  const attemptsLeft = await checkHeldCode(pending, passcode, {
    keys: services.keys.token,
    now,
    countAttempt: async (proofId) =>
      (
        await db.query<{ proof_attempts: number }>(
          `update phone_proofs set proof_attempts = proof_attempts + 1
            where user_id = $1 and site_id = $2 and proof_id = $3 and proof_attempts < $4
            returning proof_attempts`,
          [userId, siteId, proofId, MAX_CODE_ATTEMPTS],
        )
      ).rows[0]?.proof_attempts,
  });
  if (attemptsLeft !== null) throw passcodeInvalid(attemptsLeft);
  const proofId = pending.proof_id;
  await db.transaction(async (tx) => {
    const proved = await tx.query<{ phone: string }>('delete from phone_proofs where user_id = $1 and site_id = $2 and proof_id = $3 returning phone', [
      userId,
      siteId,
      proofId,
    ]);
    const phone = proved.rows[0]?.phone;
    // A racing call with the same code, or a save of another number, came first.
    if (phone === undefined) throw passcodeInvalid(0);
    await tx.query(`update user_sites set ${PASSCODE_PHONE_CHANGE} where user_id = $1 and site_id = $2`, [userId, siteId, ...passcodePhoneChange(phone, now)]);
  });
  return { pendingPhone: null };
}

function notPending(): HttpError {
  return new HttpError(409, 'PHONE_NOT_PENDING', 'No new phone number is waiting for its code on this site.');
}

function passcodeInvalid(attemptsLeft: number): HttpError {
  return new HttpError(
    400,
    'PASSCODE_INVALID',
    'The code is not right, or it has expired; ask for a new one.',
    { passcode: 'invalid' },
    { extras: { attemptsLeft } },
  );
}
