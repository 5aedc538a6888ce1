import type { FastifyInstance } from 'fastify';
import { setSessionCookies } from '../../auth/session-cookies';
import { recordProofs, type GivenProof } from '../../auth/assurance';
import { sessionDeviceOf } from '../../auth/session-device';
import { openSession, sessionIdOf } from '../../auth/session-store';
import type { Database } from '../../db/database';
import { HttpError, pathOf, sendError } from '../../http/errors';
import type { AdjustableClock } from '../../time/clock';
import { fromContract } from '../../http/route-contract';

/**
 * Test hooks, registered only when the gateway runs in test mode (GATEWAY_TEST_MODE=true); the
 * production server has no such paths. They are exempt from the XSRF check (ADR 0008): they are
 * the browser tests' own setup calls, made outside any page.
 *
 * - `POST test-support/session { email, siteId }` signs a seeded user in without a password, so
 *   browser tests can walk signed-in routes (ADR 0007).
 * - `POST test-support/clock { advanceSeconds }` moves the gateway's one clock forward (ADR 0008
 *   "Test clock"), so expiry and lockout tests never sleep.
 * - `POST test-support/fail-next { method, path, status }` makes the next matching call answer
 *   that status once (ADR 0011), so browser tests show each SPEC §8 failure with its real X-CID.
 */
const TEST_SIGN_IN_PROOFS: readonly GivenProof[] = [{ kind: 'password' }, { kind: 'passcode', channel: 'email' }, { kind: 'totp' }, { kind: 'sso' }];

export async function testSupportRoutes(app: FastifyInstance, options: { db: Database; clock: AdjustableClock; failures: InjectedFailures }): Promise<void> {
  const { db, clock, failures } = options;
  app.route<{ Body: { email: string; siteId: string } }>({
    ...fromContract('POST /test-support/session', { xsrfExempt: true }),
    handler: async (request, reply) => {
      const { email, siteId } = request.body;
      const found = await db.query<{ id: string; roles: string[] }>('select id, roles from users where email = $1', [email.toLowerCase()]);
      const user = found.rows[0];
      if (!user) throw new HttpError(404, 'USER_NOT_FOUND', 'No user has this e-mail address.');
      // Recorded as a sign-in's would be, so the browser tests' sessions list by their browser (ADR 0025).
      const session = await openSession(db, user.id, siteId, clock.now(), { device: sessionDeviceOf(request) });
      // As a sign-in that just passed every step the site could ask (ADR 0025): a test moves the clock past
      // FRESH_PROOF_MAX_AGE_MS to meet the "confirm it's you" step.
      await recordProofs(db, sessionIdOf(session.token), siteId, TEST_SIGN_IN_PROOFS, clock.now());
      setSessionCookies(request, reply, session, user.roles);
      return { signedIn: true, expiresAt: session.expiresAt.toISOString() };
    },
  });

  app.route<{ Body: { advanceSeconds: number } }>({
    ...fromContract('POST /test-support/clock', { xsrfExempt: true }),
    handler: async (request) => ({ now: clock.advance(request.body.advanceSeconds).toISOString() }),
  });
  app.route<{ Body: InjectedFailure }>({
    ...fromContract('POST /test-support/fail-next', { xsrfExempt: true }),
    handler: async (request) => {
      failures.add(request.body);
      return { armed: true };
    },
  });
}

/** A call to fail once: `path` is relative to the API base, `*` stands for one segment (a card id). */
export interface InjectedFailure {
  method: string;
  path: string;
  status: number;
}

/** The failures armed by `test-support/fail-next`, each used by the first matching call. */
export class InjectedFailures {
  private readonly armed: InjectedFailure[] = [];

  add(failure: InjectedFailure): void {
    this.armed.push(failure);
  }

  /** Removes and returns the first armed failure for this call, if any. */
  take(method: string, path: string): InjectedFailure | undefined {
    const index = this.armed.findIndex((failure) => failure.method === method && pathMatches(failure.path, path));
    return index === -1 ? undefined : this.armed.splice(index, 1)[0];
  }
}

function pathMatches(pattern: string, path: string): boolean {
  const wanted = pattern.replace(/^\/+/, '').split('/');
  const actual = path.split('/');
  return wanted.length === actual.length && wanted.every((segment, index) => segment === '*' || segment === actual[index]);
}

/**
 * Test mode only: answers a call under one of `prefixes` with its armed failure, as the JSON error
 * of every failure, before the route runs (so nothing is stored). Added after the X-CID hook, so the
 * answer carries the call's correlation id.
 */
export function answerInjectedFailures(app: FastifyInstance, failures: InjectedFailures, prefixes: readonly string[]): void {
  app.addHook('onRequest', async (request, reply) => {
    const path = pathOf(request);
    const prefix = prefixes.find((candidate) => path.startsWith(`${candidate}/`));
    if (prefix === undefined) return;
    const failure = failures.take(request.method, path.slice(prefix.length + 1));
    if (failure)
      await sendError(reply, failure.status, { error: 'INJECTED_FAILURE', message: `A failure injected by test-support/fail-next (${failure.status}).` });
  });
}
