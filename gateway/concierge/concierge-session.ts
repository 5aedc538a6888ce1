import type { FastifyReply, FastifyRequest } from 'fastify';
import { requireSessionUser } from '../auth/session-cookies';
import type { SessionUser } from '../auth/session-store';
import type { Queryable } from '../db/database';
import { HttpError } from '../http/errors';

/** ADR 0014: a signed-in support agent and the card holder their session acts for, if any. */
export interface AgentSession {
  agent: SessionUser;
  actingForUserId: string | null;
}

export const CONCIERGE_ROLE = 'ROLE_CONCIERGE';

export function isAgent(roles: readonly string[]): boolean {
  return roles.includes(CONCIERGE_ROLE);
}

/** SPEC §6: concierge endpoints are the agent's own; 401 without a session, 403 NOT_CONCIERGE for a card holder. */
export async function requireAgent(db: Queryable, request: FastifyRequest, reply: FastifyReply, now: Date): Promise<AgentSession> {
  const agent = await requireSessionUser(db, request, reply, now);
  if (!isAgent(agent.roles)) throw new HttpError(403, 'NOT_CONCIERGE', 'Only a support agent may use the concierge calls.');
  const result = await db.query<{ acting_for_user_id: string | null }>('select acting_for_user_id from sessions where id = $1', [agent.sessionId]);
  return { agent, actingForUserId: result.rows[0]?.acting_for_user_id ?? null };
}

/** The card holder the agent acts for; 409 NOT_ACTING_FOR_USER before one is chosen. */
export async function requireActingFor(db: Queryable, request: FastifyRequest, reply: FastifyReply, now: Date): Promise<{ agent: SessionUser; userId: string }> {
  const { agent, actingForUserId } = await requireAgent(db, request, reply, now);
  if (actingForUserId === null) throw new HttpError(409, 'NOT_ACTING_FOR_USER', 'Choose the card holder to act for first.');
  return { agent, userId: actingForUserId };
}

/** ADR 0014: an agent acts on the site they signed in on. */
export function assertAgentSite(agent: SessionUser, siteId: string): void {
  if (siteId !== agent.siteId) throw new HttpError(403, 'CONCIERGE_NOT_ALLOWED', 'A support agent acts only on the site they signed in on.');
}
