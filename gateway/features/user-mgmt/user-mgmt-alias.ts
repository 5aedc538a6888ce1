import type { FastifyInstance } from 'fastify';
import { ALIAS_BODY, ALIAS_CONFIRM_BODY } from '../../../schemas/api/request-schemas';
import type { ALIAS_ANSWER } from '../../../schemas/api/response-schemas';
import type { SchemaType } from '../../../schemas/api/schema-type';
import { normaliseAlias, validateAlias, type AliasType } from '../../../schemas/account/user-alias';
import { aliasForNotice, changeNoticeOf, queueAccountNotice } from '../../account/account-notices';
import { aliasTaken, confirmAliasProof, isUniqueViolation, type AliasProofJob } from '../../account/alias-proof';
import { assertContactPointsMayChange } from '../../auth/assurance';
import type { AuthServices } from '../../auth/auth-services';
import { requireSessionUser } from '../../auth/session-cookies';
import { withAudit } from '../../concierge/concierge-audit';
import { requireActingFor } from '../../concierge/concierge-session';
import type { Database, Queryable } from '../../db/database';
import { HttpError } from '../../http/errors';
import type { Fixtures } from '../../site-files/load-fixtures';
import type { JobQueue } from '../../jobs/job-queue';
import { fromContract } from '../../http/route-contract';

/** The answer of both calls: the alias as stored, and whether it counts yet. */
type AliasAnswer = SchemaType<typeof ALIAS_ANSWER>;

/**
 * SPEC §7 `POST user-mgmt/user/alias` (`alias`, `aliasType`), docs/decisions/0022-declared-calls.md:
 * sets the signed-in card holder's alias of that type on the session's site (never a site the request
 * names, ADR 0017), replacing the previous one. An agent sets it for the card holder they act for,
 * with an audit row (ADR 0014), a USERNAME only: an address is a contact point, which only the holder sets,
 * with fresh proof (ADR 0025). A USERNAME another account of the site holds is 409 ALIAS_TAKEN.
 * An EMAIL alias is stored unproved for every address alike, and the code that proves it is mailed by
 * a job after the answer (ADR 0022 "Proving an EMAIL alias"), so the answer never tells whether the
 * address is someone else's (ADR 0017). Aliases are not a sign-in name: sign-in stays the e-mail
 * address (ADR 0008).
 */
export async function userMgmtAliasRoutes(
  app: FastifyInstance,
  options: { db: Database; fixtures: Fixtures; auth: AuthServices; jobs: JobQueue },
): Promise<void> {
  const { db, fixtures, auth, jobs } = options;
  app.route<{ Body: SchemaType<typeof ALIAS_BODY> }>({
    ...fromContract('POST /user-mgmt/user/alias'),
    handler: async (request, reply): Promise<AliasAnswer> => {
      const now = auth.clock.now();
      const session = await requireSessionUser(db, request, reply, now);
      // Counted for the caller before the alias is looked at, so a 429 tells nothing about it.
      await auth.limits.countAliasCall(session.userId);
      const { aliasType } = request.body;
      const alias = aliasType === 'EMAIL' ? request.body.alias.trim() : request.body.alias;
      const invalid = validateAlias(aliasType, alias);
      if (invalid) throw new HttpError(400, 'VALIDATION_FAILED', `Invalid alias for type ${aliasType}.`, { alias: invalid.key });
      if (aliasType === 'EMAIL') {
        // ADR 0025: an address is a contact point, so it takes the holder's fresh proof; an agent never sets one.
        await assertContactPointsMayChange(db, fixtures, session, ['email'], now);
        // ADR 0009's mails per typed address: an address alias may mail its code, or a notice, to a stranger's box.
        await auth.limits.countAccountMail(normaliseAlias(aliasType, alias));
      }
      const stored = { alias, aliasType };
      if (!session.isAgent) {
        const proved = await db.transaction((tx) => saveAlias(tx, jobs, session.userId, session.siteId, stored, now));
        if (!proved) jobs.wakeAfterAnswer(reply);
        return { ...stored, proved };
      }
      const { agent, userId } = await requireActingFor(db, request, reply, now);
      const proved = await withAudit(
        db,
        (tx) => saveAlias(tx, jobs, userId, agent.siteId, stored, now),
        async (_saved, tx) => {
          await queueAccountNotice(jobs, reply, { notice: 'agent-acted', userId, siteId: agent.siteId, attributeKeys: ['alias'], at: now.toISOString() }, tx);
          return { agentId: agent.userId, userId, siteId: agent.siteId, action: 'alias.set', correlationId: request.id, at: now };
        },
      );
      // The notice's wake after the answer also runs the proof job queued beside it.
      return { ...stored, proved };
    },
  });

  app.route<{ Body: SchemaType<typeof ALIAS_CONFIRM_BODY> }>({
    // The proof is the mailbox owner's own: the card holder enters the code in their session (ADR 0022).
    ...fromContract('POST /user-mgmt/user/alias/confirm'),
    handler: async (request, reply): Promise<AliasAnswer> => {
      const now = auth.clock.now();
      const session = await requireSessionUser(db, request, reply, now);
      // Counted with the other code checks per IP (ADR 0008), before the code is looked at.
      await auth.limits.countCodeCheck(request.ip);
      const alias = request.body.alias.trim();
      const invalid = validateAlias('EMAIL', alias);
      if (invalid) throw new HttpError(400, 'VALIDATION_FAILED', 'Invalid alias for type EMAIL.', { alias: invalid.key });
      // ADR 0021 "Telling the holder": the account's own address hears of the new one, in the proof's transaction.
      const change = changeNoticeOf(request, auth, session.userId, session.siteId);
      return confirmAliasProof(db, auth, { userId: session.userId, siteId: session.siteId, alias, passcode: request.body.passcode }, (tx, proved) =>
        queueAccountNotice(jobs, reply, { notice: 'alias-proved', ...change, alias: aliasForNotice(proved) }, tx),
      );
    },
  });
}

/**
 * Stores the alias; true when it counts at once. A USERNAME does; another account's is 409 ALIAS_TAKEN. An
 * EMAIL alias is stored unproved, whoever holds the address, with its `alias-proof` job in the same
 * transaction: the work is the same for a stranger's address, a member's own and a free one. The caller's
 * own proved address posted again stays proved, and nothing is mailed.
 */
async function saveAlias(
  tx: Queryable,
  jobs: JobQueue,
  userId: string,
  siteId: string,
  { alias, aliasType }: { alias: string; aliasType: AliasType },
  now: Date,
): Promise<boolean> {
  const normalised = normaliseAlias(aliasType, alias);
  if (aliasType === 'EMAIL') {
    const kept = await tx.query(
      `update user_aliases set alias = $4, updated_at = $5
        where user_id = $1 and site_id = $2 and alias_type = 'EMAIL' and normalised = $3 and proved_at is not null
        returning 1`,
      [userId, siteId, normalised, alias, now],
    );
    if (kept.rows.length > 0) return true;
    await tx.query(
      `insert into user_aliases (user_id, site_id, alias_type, alias, normalised, created_at, updated_at)
       values ($1, $2, 'EMAIL', $3, $4, $5, $5)
       on conflict (user_id, site_id, alias_type) do update set alias = excluded.alias, normalised = excluded.normalised,
         updated_at = excluded.updated_at, proved_at = null, proof_id = null, proof_hash = null, proof_expires_at = null, proof_attempts = 0`,
      [userId, siteId, alias, normalised, now],
    );
    const job: AliasProofJob = { userId, siteId, normalised };
    await jobs.enqueue('alias-proof', { ...job }, tx);
    return false;
  }
  try {
    await tx.query(
      `insert into user_aliases (user_id, site_id, alias_type, alias, normalised, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $6)
       on conflict (user_id, site_id, alias_type) do update set alias = excluded.alias, normalised = excluded.normalised, updated_at = excluded.updated_at`,
      [userId, siteId, aliasType, alias, normalised, now],
    );
  } catch (error) {
    // The unique index decides between two accounts claiming the same handle at once.
    if (isUniqueViolation(error)) throw aliasTaken();
    throw error;
  }
  return true;
}
