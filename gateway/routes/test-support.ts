import type { FastifyInstance } from 'fastify';
import { SITE_ID_PATTERN } from '../../schemas/site-config/fixture-format';
import { setSessionCookies } from '../auth/session-cookies';
import { openSession } from '../auth/session-store';
import type { Database } from '../db/database';
import { HttpError } from '../http/errors';
import type { AdjustableClock } from '../time/clock';

/**
 * Test hooks, registered only when the gateway runs in test mode (GATEWAY_TEST_MODE=true); the
 * production server has no such paths. They are exempt from the XSRF check (ADR 0008): they are
 * the browser tests' own setup calls, made outside any page.
 *
 * - `POST test-support/session { email, siteId }` signs a seeded user in without a password, so
 *   browser tests can walk signed-in routes (issue 4).
 * - `POST test-support/clock { advanceSeconds }` moves the gateway's one clock forward (ADR 0008
 *   "Test clock"), so expiry and lockout tests never sleep.
 */
export async function testSupportRoutes(app: FastifyInstance, options: { db: Database; clock: AdjustableClock }): Promise<void> {
  const { db, clock } = options;
  app.post<{ Body: { email: string; siteId: string } }>(
    '/test-support/session',
    {
      config: { xsrfExempt: true },
      schema: {
        body: {
          type: 'object',
          required: ['email', 'siteId'],
          additionalProperties: false,
          properties: { email: { type: 'string', minLength: 3, maxLength: 254 }, siteId: { type: 'string', pattern: SITE_ID_PATTERN } },
        },
      },
    },
    async (request, reply) => {
      const { email, siteId } = request.body;
      const found = await db.query<{ id: string; roles: string[] }>('select id, roles from users where email = $1', [email.toLowerCase()]);
      const user = found.rows[0];
      if (!user) throw new HttpError(404, 'USER_NOT_FOUND', 'No user has this e-mail address.');
      const session = await openSession(db, user.id, siteId, clock.now());
      setSessionCookies(request, reply, session, user.roles);
      return { signedIn: true, expiresAt: session.expiresAt.toISOString() };
    },
  );

  app.post<{ Body: { advanceSeconds: number } }>(
    '/test-support/clock',
    {
      config: { xsrfExempt: true },
      schema: {
        body: {
          type: 'object',
          required: ['advanceSeconds'],
          additionalProperties: false,
          properties: { advanceSeconds: { type: 'integer', minimum: 0, maximum: 366 * 24 * 3600 } },
        },
      },
    },
    async (request) => ({ now: clock.advance(request.body.advanceSeconds).toISOString() }),
  );
}
