import { randomUUID } from 'node:crypto';
import { normaliseAlias } from '../../schemas/account/user-alias';
import type { AuthServices } from '../auth/auth-services';
import { checkHeldCode, CODE_TTL_MS, codeHash, MAX_CODE_ATTEMPTS, newCode, type HeldCode } from '../auth/one-time-codes';
import type { Database, Queryable } from '../db/database';
import type { Fixtures } from '../site-files/load-fixtures';
import { HttpError } from '../http/errors';
import { DEFAULT_LOCALE } from '../locale';
import { recipientById } from '../mail/recipient';
import { aliasAttemptMail, aliasProofMail } from './account-mail';

/**
 * docs/decisions/0022-declared-calls.md "Proving an EMAIL alias" (ADR 0017, the alias oracle and squatting): an
 * address alias is stored unproved by `POST user-mgmt/user/alias`, whoever holds the address, and counts for
 * nothing until the code mailed to it comes back through `alias/confirm`. Whether the address is already
 * someone's is looked at only here, by the job that runs after the answer, so the call answers every address
 * alike; such an address gets a notice instead of the code, and so can never be proved by someone else.
 */

/** The ADR 0012 `alias-proof` job: the account, site and address (lower case) waiting for a code. */
export interface AliasProofJob {
  userId: string;
  siteId: string;
  normalised: string;
}

/** What `alias/confirm` answers: the address, now proved. */
export interface ProvedAlias {
  alias: string;
  aliasType: 'EMAIL';
  proved: true;
}

/**
 * The account, other than `userId`, whose address `normalised` already is: the own address of an account that
 * proved its mailbox (activated, or signed in by SSO; an unactivated registration proves nothing and blocks
 * no one, ADR 0009), or another account's proved alias on the site. Null when the address is no one else's.
 */
async function otherOwnerOf(db: Queryable, normalised: string, siteId: string, userId: string): Promise<string | null> {
  const found = await db.query<{ id: string }>(
    `select id from users where email = $1 and id <> $2 and status <> 'INACTIVE'
     union all
     select user_id as id from user_aliases
      where site_id = $3 and alias_type = 'EMAIL' and normalised = $1 and proved_at is not null and user_id <> $2
     limit 1`,
    [normalised, userId, siteId],
  );
  return found.rows[0]?.id ?? null;
}

/**
 * The `alias-proof` job. Every unproved address gets a fresh code stored (a new one replaces the last), so
 * `alias/confirm` counts attempts alike for every address; the code is mailed to the address only when it is
 * no one else's. An address that is already someone's gets, instead, a notice in its owner's language that
 * someone tried to add it: the code stays unknown to anyone, and the alias can never be proved.
 */
export async function sendAliasProof(db: Database, fixtures: Fixtures, services: AuthServices, job: AliasProofJob): Promise<void> {
  const now = services.clock.now();
  const proofId = randomUUID();
  const code = newCode();
  const stored = await db.query<{ alias: string }>(
    `update user_aliases set proof_id = $4, proof_hash = $5, proof_expires_at = $6, proof_attempts = 0
      where user_id = $1 and site_id = $2 and alias_type = 'EMAIL' and normalised = $3 and proved_at is null
      returning alias`,
    [job.userId, job.siteId, job.normalised, proofId, codeHash(services.keys.token.current(now).secret, proofId, code), new Date(now.getTime() + CODE_TTL_MS)],
  );
  const alias = stored.rows[0]?.alias;
  // Replaced by another address, proved, or the account deleted since the call: nothing to send.
  if (alias === undefined) return;
  const site = (fixtures.sites.get(job.siteId) ?? fixtures.defaultSite).config.name;
  const owner = await otherOwnerOf(db, job.normalised, job.siteId, job.userId);
  if (owner !== null) {
    const reader = await recipientById(db, owner, job.siteId);
    await services.mailer.send(aliasAttemptMail(services.mailTexts(reader?.locale ?? DEFAULT_LOCALE), alias, site));
    return;
  }
  // The person who added the address reads the code, so it is written in their language.
  const reader = await recipientById(db, job.userId, job.siteId);
  await services.mailer.send(aliasProofMail(services.mailTexts(reader?.locale ?? DEFAULT_LOCALE), alias, site, code, CODE_TTL_MS / 60_000));
}

interface PendingAlias extends HeldCode {
  alias: string;
  normalised: string;
  proved_at: Date | string | null;
}

/**
 * `alias/confirm`: the caller's unproved EMAIL alias `alias` on the site becomes proved when `passcode` is the
 * code mailed to it (ADR 0008 rules: 10 minutes, 5 attempts, single use; both updates are conditional, so two
 * racing calls cannot use one code twice or exceed the attempts). A proved alias answers as proved again.
 * `onProved` runs in the transaction that proves it, with the address as stored (the account's notice, ADR 0021
 * "Telling the holder"); not for an alias proved before.
 */
export async function confirmAliasProof(
  db: Database,
  services: AuthServices,
  request: { userId: string; siteId: string; alias: string; passcode: string },
  onProved: (tx: Queryable, alias: string) => Promise<void> = async () => undefined,
): Promise<ProvedAlias> {
  const { userId, siteId, passcode } = request;
  const now = services.clock.now();
  const normalised = normaliseAlias('EMAIL', request.alias);
  const found = await db.query<PendingAlias>(
    `select alias, normalised, proved_at, proof_id, proof_hash, proof_expires_at from user_aliases
      where user_id = $1 and site_id = $2 and alias_type = 'EMAIL'`,
    [userId, siteId],
  );
  const row = found.rows[0];
  if (row === undefined || row.normalised !== normalised) throw notPending();
  if (row.proved_at !== null) return { alias: row.alias, aliasType: 'EMAIL', proved: true };
  // No code yet (the job has not run), or a spent or expired one: "ask for a new one" is posting the alias again.
  const attemptsLeft = await checkHeldCode(row, passcode, {
    keys: services.keys.token,
    now,
    countAttempt: async (proofId) =>
      (
        await db.query<{ proof_attempts: number }>(
          `update user_aliases set proof_attempts = proof_attempts + 1
            where user_id = $1 and site_id = $2 and alias_type = 'EMAIL' and proof_id = $3 and proof_attempts < $4
            returning proof_attempts`,
          [userId, siteId, proofId, MAX_CODE_ATTEMPTS],
        )
      ).rows[0]?.proof_attempts,
  });
  if (attemptsLeft !== null) throw passcodeInvalid(attemptsLeft);

  // Only the mailbox's owner gets this far, so telling them the address became someone else's since the code
  // was mailed (an activated registration, or another of their accounts proving it first) tells no one else anything.
  if ((await otherOwnerOf(db, normalised, siteId, userId)) !== null) throw aliasTaken();
  const proofId = row.proof_id;
  try {
    await db.transaction(async (tx) => {
      const proved = await tx.query(
        `update user_aliases set proved_at = $4, updated_at = $4, proof_id = null, proof_hash = null, proof_expires_at = null, proof_attempts = 0
          where user_id = $1 and site_id = $2 and alias_type = 'EMAIL' and proof_id = $3 and proved_at is null
          returning 1`,
        [userId, siteId, proofId, now],
      );
      // A racing call with the same code proved it, or a new code replaced this one, in between.
      if (proved.rows.length === 0) throw passcodeInvalid(0);
      await onProved(tx, row.alias);
    });
  } catch (error) {
    // The unique index of proved addresses decides between two accounts proving one address at once.
    if (isUniqueViolation(error)) throw aliasTaken();
    throw error;
  }
  return { alias: row.alias, aliasType: 'EMAIL', proved: true };
}

export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

export function aliasTaken(): HttpError {
  return new HttpError(409, 'ALIAS_TAKEN', 'Another account on this site already uses this alias; choose another.', { alias: 'taken' });
}

function notPending(): HttpError {
  return new HttpError(409, 'ALIAS_NOT_PENDING', 'This address is not your alias waiting for its code; add it as your alias first.', {
    alias: 'notPending',
  });
}

function passcodeInvalid(attemptsLeft: number): HttpError {
  return new HttpError(
    400,
    'PASSCODE_INVALID',
    'The code is not right, or it has expired; add the alias again for a new one.',
    { passcode: 'invalid' },
    { extras: { attemptsLeft } },
  );
}
