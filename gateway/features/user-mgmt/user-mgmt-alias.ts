import type { FastifyInstance } from 'fastify';
import { ALIAS_BODY } from '../../../schemas/api/request-schemas';
import type { ALIAS_ANSWER } from '../../../schemas/api/response-schemas';
import type { SchemaType } from '../../../schemas/api/schema-type';
import { normaliseAlias, validateAlias } from '../../../schemas/account/user-alias';
import { queueAccountNotice } from '../../account/account-notices';
import type { AuthServices } from '../../auth/auth-services';
import { requireSessionUser } from '../../auth/session-cookies';
import { withAudit } from '../../concierge/concierge-audit';
import { requireActingFor } from '../../concierge/concierge-session';
import type { Database, Queryable } from '../../db/database';
import { HttpError } from '../../http/errors';
import type { JobQueue } from '../../jobs/job-queue';

/** The answer of the call: the alias as stored. */
type AliasAnswer = SchemaType<typeof ALIAS_ANSWER>;

/**
 * SPEC §7 `POST user-mgmt/user/alias` (`alias`, `aliasType`), docs/decisions/0022-declared-calls.md:
 * sets the signed-in card holder's alias of that type on the session's site (never a site the request
 * names, ADR 0017), replacing the previous one. An agent sets it for the card holder they act for,
 * with an audit row (ADR 0014). An alias another account of the site holds is 409 ALIAS_TAKEN.
 * Aliases are not a sign-in name: sign-in stays the e-mail address (ADR 0008).
 */
export async function userMgmtAliasRoutes(app: FastifyInstance, options: { db: Database; auth: AuthServices; jobs: JobQueue }): Promise<void> {
  const { db, auth, jobs } = options;
  app.post<{ Body: SchemaType<typeof ALIAS_BODY> }>(
    '/user-mgmt/user/alias',
    {
      config: { access: 'signed-in' },
      schema: { body: ALIAS_BODY },
    },
    async (request, reply): Promise<AliasAnswer> => {
      const now = auth.clock.now();
      const session = await requireSessionUser(db, request, reply, now);
      // Counted for the caller before the alias is looked at, so a 429 tells nothing about it.
      await auth.limits.countAliasCall(session.userId);
      const { aliasType } = request.body;
      const alias = aliasType === 'EMAIL' ? request.body.alias.trim() : request.body.alias;
      const invalid = validateAlias(aliasType, alias);
      if (invalid) throw new HttpError(400, 'VALIDATION_FAILED', `Invalid alias for type ${aliasType}.`, { alias: invalid.key });
      const stored = { alias, aliasType };
      if (!session.isAgent) {
        await db.transaction((tx) => saveAlias(tx, session.userId, session.siteId, stored, now));
        return stored;
      }
      const { agent, userId } = await requireActingFor(db, request, reply, now);
      await withAudit(
        db,
        (tx) => saveAlias(tx, userId, agent.siteId, stored, now),
        async (_saved, tx) => {
          await queueAccountNotice(jobs, reply, { notice: 'agent-acted', userId, siteId: agent.siteId, attributeKeys: ['alias'], at: now.toISOString() }, tx);
          return { agentId: agent.userId, userId, siteId: agent.siteId, action: 'alias.set', correlationId: request.id, at: now };
        },
      );
      return stored;
    },
  );
}

async function saveAlias(tx: Queryable, userId: string, siteId: string, { alias, aliasType }: AliasAnswer, now: Date): Promise<void> {
  const normalised = normaliseAlias(aliasType, alias);
  // An address alias may not be another account's own address on this site: it would read as theirs.
  if (aliasType === 'EMAIL') {
    const owner = await tx.query(
      `select 1 from users u join user_sites s on s.user_id = u.id
        where s.site_id = $1 and lower(u.email) = $2 and u.id <> $3 limit 1`,
      [siteId, normalised, userId],
    );
    if (owner.rows.length > 0) throw aliasTaken();
  }
  try {
    await tx.query(
      `insert into user_aliases (user_id, site_id, alias_type, alias, normalised, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $6)
       on conflict (user_id, site_id, alias_type) do update set alias = excluded.alias, normalised = excluded.normalised, updated_at = excluded.updated_at`,
      [userId, siteId, aliasType, alias, normalised, now],
    );
  } catch (error) {
    // The unique index decides between two accounts claiming the same alias at once.
    if (typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505') throw aliasTaken();
    throw error;
  }
}

function aliasTaken(): HttpError {
  return new HttpError(409, 'ALIAS_TAKEN', 'Another account on this site already uses this alias; choose another.', { alias: 'taken' });
}
