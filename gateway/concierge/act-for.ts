import type { FastifyReply, FastifyRequest } from 'fastify';
import { validateEmail } from '../../schemas/validators/email';
import { expireCookies, isHttps, serializeCookie, SUPPORT_DETAILS_COOKIE } from '../auth/session-cookies';
import type { SessionUser } from '../auth/session-store';
import type { Database, Queryable } from '../db/database';
import { HttpError } from '../http/errors';
import { withAudit } from './concierge-audit';
import { CONCIERGE_ROLE } from './concierge-session';

/** ADR 0014: the display data of the card holder acted for; nothing secret (no e-mail, no card). */
export interface ActingFor {
  primaryUserIdentifier: string;
  firstName: string | null;
  lastName: string | null;
}

/** Who performs a change, for its audit row. */
export interface AgentCall {
  agent: SessionUser;
  correlationId: string;
  now: Date;
}

/**
 * ADR 0014 `act-for { email }`: the card holder with that address and a profile on the agent's site
 * becomes the one the agent's session acts for. Another agent's address is not a card holder.
 */
export async function startActingFor(db: Database, call: AgentCall, email: string): Promise<ActingFor> {
  const address = email.trim().toLowerCase();
  if (address === '') throw new HttpError(400, 'VALIDATION_FAILED', 'email is required.', { email: 'required' });
  if (validateEmail(address) !== null) throw new HttpError(400, 'VALIDATION_FAILED', 'email is not a valid e-mail address.', { email: 'invalid' });
  const found = await db.query<{ id: string; first_name: string | null; last_name: string | null }>(
    `select u.id, u.first_name, u.last_name from users u join user_sites s on s.user_id = u.id and s.site_id = $2
      where u.email = $1 and not ($3 = any (u.roles))`,
    [address, call.agent.siteId, CONCIERGE_ROLE],
  );
  const user = found.rows[0];
  if (!user) throw new HttpError(404, 'USER_NOT_FOUND', 'No card holder has this e-mail address on this site.', { email: 'notFound' });
  return withAudit(
    db,
    async (tx) => {
      await tx.query('update sessions set acting_for_user_id = $2 where id = $1', [call.agent.sessionId, user.id]);
      return { primaryUserIdentifier: user.id, firstName: user.first_name, lastName: user.last_name };
    },
    () => ({
      agentId: call.agent.userId,
      userId: user.id,
      siteId: call.agent.siteId,
      action: 'act-for.start',
      correlationId: call.correlationId,
      at: call.now,
    }),
  );
}

/** ADR 0014 `stop-acting`: the session acts for nobody; audited when it acted for someone. */
export async function stopActingFor(db: Database, call: AgentCall, actingForUserId: string | null): Promise<void> {
  if (actingForUserId === null) return;
  await withAudit(
    db,
    (tx) => tx.query('update sessions set acting_for_user_id = null where id = $1', [call.agent.sessionId]),
    () => ({
      agentId: call.agent.userId,
      userId: actingForUserId,
      siteId: call.agent.siteId,
      action: 'act-for.stop',
      correlationId: call.correlationId,
      at: call.now,
    }),
  );
}

export async function readActingFor(db: Queryable, userId: string | null): Promise<ActingFor | null> {
  if (userId === null) return null;
  const result = await db.query<{ first_name: string | null; last_name: string | null }>('select first_name, last_name from users where id = $1', [userId]);
  const row = result.rows[0];
  return row ? { primaryUserIdentifier: userId, firstName: row.first_name, lastName: row.last_name } : null;
}

/** SPEC §9 `gmap_support_details`: readable, expiring with the agent's session, base64url JSON. */
export function setSupportDetailsCookie(request: FastifyRequest, reply: FastifyReply, agent: SessionUser, actingFor: ActingFor): void {
  const value = Buffer.from(JSON.stringify(actingFor)).toString('base64url');
  reply.header('set-cookie', serializeCookie(SUPPORT_DETAILS_COOKIE, value, { httpOnly: false, secure: isHttps(request), expires: agent.expiresAt }));
}

export function expireSupportDetailsCookie(request: FastifyRequest, reply: FastifyReply): void {
  expireCookies(request, reply, [SUPPORT_DETAILS_COOKIE]);
}
