import type { FastifyReply, FastifyRequest } from 'fastify';
import { requireSessionUser } from '../auth/session-cookies';
import type { SessionUser } from '../auth/session-store';
import type { Queryable } from '../db/database';
import { HttpError } from '../http/errors';

export { CONCIERGE_ROLE } from '../auth/session-store';

/** ADR 0014: a signed-in support agent and the card holder their session acts for, if any. */
export interface AgentSession {
  agent: SessionUser;
  actingForUserId: string | null;
}

/**
 * SPEC §6: concierge endpoints are the agent's own. Their routes declare `access: 'agent'`, so the
 * access hook (ADR 0017) has already answered 401 without a session, 403 NOT_CONCIERGE to a card
 * holder and 403 to an agent on a site not granted to them.
 */
export async function requireAgent(db: Queryable, request: FastifyRequest, reply: FastifyReply, now: Date): Promise<AgentSession> {
  const agent = await requireSessionUser(db, request, reply, now);
  if (!agent.isAgent) throw new HttpError(403, 'NOT_CONCIERGE', 'Only a support agent may use the concierge calls.');
  return { agent, actingForUserId: agent.actingForUserId };
}

/** The card holder the agent acts for; 409 NOT_ACTING_FOR_USER before one is chosen. */
export async function requireActingFor(
  db: Queryable,
  request: FastifyRequest,
  reply: FastifyReply,
  now: Date,
): Promise<{ agent: SessionUser; userId: string }> {
  const { agent, actingForUserId } = await requireAgent(db, request, reply, now);
  if (actingForUserId === null) throw new HttpError(409, 'NOT_ACTING_FOR_USER', 'Choose the card holder to act for first.');
  return { agent, userId: actingForUserId };
}
