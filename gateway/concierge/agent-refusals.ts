import type { FastifyInstance } from 'fastify';
import { readCookies, SESSION_COOKIE } from '../auth/session-cookies';
import { findSessionUser } from '../auth/session-store';
import { cardCallRoutes } from '../cards/card-call-paths';
import type { Database } from '../db/database';
import type { Fixtures } from '../fixtures/load-fixtures';
import { HttpError } from '../http/errors';
import type { Clock } from '../time/clock';
import { isAgent } from './concierge-session';

/** ADR 0014 "Refusals": the calls that change credentials or the account, which an agent never makes. */
const ACCOUNT_CALLS: readonly string[] = [
  'user-mgmt/user/change-password',
  'user-mgmt/user/vba/compromised-password',
  'user-mgmt/user/remove-account',
  'user-mgmt/user/mfa/totp/setup',
  'user-mgmt/user/mfa/totp/enroll',
  'user-mgmt/user/mfa/totp/unenroll',
];

/**
 * Answers 403 CONCIERGE_NOT_ALLOWED to an agent's session on those calls and on the card enrolment,
 * removal and set-default calls (an agent never handles a card number), before the route runs. Added
 * to the API scope like the XSRF check; other sessions and anonymous calls go on to the route.
 */
export function refuseAgentAccountCalls(api: FastifyInstance, options: { db: Database; fixtures: Fixtures; clock: Clock }): void {
  const { db, fixtures, clock } = options;
  const cardCalls = cardCallRoutes(fixtures).filter((route) => route.call !== 'validate').map((route) => route.path);
  const refused = new Set([...ACCOUNT_CALLS, ...cardCalls].map((path) => `${api.prefix}/${path.replace(/^\/+/, '')}`));
  api.addHook('onRequest', async (request) => {
    if (request.method !== 'POST' || !refused.has(request.routeOptions.url ?? '')) return;
    const token = readCookies(request).get(SESSION_COOKIE);
    const user = token ? await findSessionUser(db, token, clock.now()) : null;
    if (user && isAgent(user.roles)) {
      throw new HttpError(403, 'CONCIERGE_NOT_ALLOWED', 'A support agent cannot change passwords, MFA, cards or the account; the card holder does that.');
    }
  });
}
