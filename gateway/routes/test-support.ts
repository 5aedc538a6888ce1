import type { FastifyInstance } from 'fastify';
import { SITE_ID_PATTERN } from '../../schemas/site-config/fixture-format';
import { setSessionCookies } from '../auth/session-cookies';
import { openSession } from '../auth/session-store';
import type { Database } from '../db/database';
import { HttpError } from '../http/errors';

/**
 * `POST test-support/session { email, siteId }`: signs a seeded user in without a password, so
 * browser tests can walk signed-in routes before real sign-in exists (issue 4). Registered only
 * when the gateway runs in test mode (GATEWAY_TEST_MODE=true); the production server has no such path.
 */
export async function testSupportRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  const { db } = options;
  app.post<{ Body: { email: string; siteId: string } }>(
    '/test-support/session',
    {
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
      const session = await openSession(db, user.id, siteId);
      setSessionCookies(request, reply, session, user.roles);
      return { signedIn: true, expiresAt: session.expiresAt.toISOString() };
    },
  );
}
