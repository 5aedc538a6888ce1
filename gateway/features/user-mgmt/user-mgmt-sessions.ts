import type { FastifyInstance } from 'fastify';
import type { HOLDER_SESSIONS_ANSWER, SESSIONS_ENDED_ANSWER } from '../../../schemas/api/response-schemas';
import type { SchemaType } from '../../../schemas/api/schema-type';
import type { AuthServices } from '../../auth/auth-services';
import { endHolderSession, listHolderSessions, listTrustedDevices } from '../../auth/holder-sessions';
import { trustedDeviceIdOf } from '../../auth/password-sign-in';
import { requireSessionUser } from '../../auth/session-cookies';
import { endEverySession } from '../../auth/session-store';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import { fromContract } from '../../http/route-contract';

type HolderSessionsAnswer = SchemaType<typeof HOLDER_SESSIONS_ANSWER>;

/**
 * The holder's signed-in devices (docs/decisions/0025-fresh-proof.md "Sessions the holder can see"; Google's "Your
 * devices", GitHub's sessions page, Ory Kratos's sessions API):
 * - `GET user-mgmt/user/sessions`: the account's live sessions on every site it signs in on, and its trusted devices;
 * - `POST user-mgmt/user/sessions/{id}/revoke`: ends one of them (not the asking one: that is logout);
 * - `POST user-mgmt/user/sessions/revoke-all`: "sign out everywhere else", `endEverySession` keeping the asking one.
 * Card holders only (`cardholder`): an agent acting for someone never sees or ends their sessions (ADR 0014). No
 * fresh proof (ADR 0025): ending sessions can only take access away, never give it.
 */
export async function userMgmtSessionRoutes(app: FastifyInstance, options: { db: Database; fixtures: Fixtures; auth: AuthServices }): Promise<void> {
  const { db, fixtures, auth } = options;
  // The site's own name, as its configuration gives it; a site no longer configured still lists, by its id.
  const siteNamed = (siteId: string) => ({ id: siteId, name: fixtures.sites.get(siteId)?.config.name ?? siteId });

  app.route({
    ...fromContract('GET /user-mgmt/user/sessions'),
    handler: async (request, reply): Promise<HolderSessionsAnswer> => {
      const now = auth.clock.now();
      const user = await requireSessionUser(db, request, reply, now);
      const [sessions, trusted] = await Promise.all([
        listHolderSessions(db, user, now),
        listTrustedDevices(db, user.userId, now, trustedDeviceIdOf(request, auth, user.userId)),
      ]);
      return {
        sessions: sessions.map((session) => ({
          id: session.id,
          site: siteNamed(session.siteId),
          device: { browser: session.browser, os: session.os },
          firstAddress: session.firstAddress,
          createdAt: session.createdAt.toISOString(),
          lastUsedAt: session.lastUsedAt.toISOString(),
          current: session.current,
        })),
        trustedDevices: trusted.map((device) => ({
          id: device.id,
          site: siteNamed(device.siteId),
          device: { browser: device.browser, os: device.os },
          createdAt: device.createdAt.toISOString(),
          expiresAt: device.expiresAt.toISOString(),
          current: device.current,
        })),
      };
    },
  });

  // Both ends carry no body: whatever is sent, of any type, is read within the limit and dropped.
  await app.register(async (ending) => {
    ending.removeAllContentTypeParsers();
    ending.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));

    ending.route<{ Params: { id: string } }>({
      ...fromContract('POST /user-mgmt/user/sessions/:id/revoke'),
      handler: async (request, reply) => {
        const now = auth.clock.now();
        const user = await requireSessionUser(db, request, reply, now);
        await endHolderSession(db, user, request.params.id, now);
        return { revoked: true };
      },
    });

    ending.route({
      ...fromContract('POST /user-mgmt/user/sessions/revoke-all'),
      handler: async (request, reply): Promise<SchemaType<typeof SESSIONS_ENDED_ANSWER>> => {
        const now = auth.clock.now();
        const user = await requireSessionUser(db, request, reply, now);
        return db.transaction((tx) => endEverySession(tx, user.userId, now, user.sessionId));
      },
    });
  });
}
