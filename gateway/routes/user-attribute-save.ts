import type { FastifyInstance } from 'fastify';
import { SITE_ID_PATTERN } from '../../schemas/site-config/fixture-format';
import { requireSessionUser } from '../auth/session-cookies';
import type { Database } from '../db/database';
import { LOCALE_PATTERN } from '../locale';
import type { Clock } from '../time/clock';

/**
 * SPEC §7 `POST user-attribute/v2/user/{siteId}` `{ attributes }`, as far as issue 4 needs it: the
 * app's auth machine saves the user's site locale there after USER_NOT_FOUND (§4), which gives the
 * user a profile on that site. Only `locale` is accepted for now; the profile issue widens the body
 * to every attribute, checked against the site's schema. The XSRF double submit is checked for
 * every state-changing call of the API scope (`http/xsrf.ts`, ADR 0008).
 */
export async function userAttributeSaveRoutes(app: FastifyInstance, options: { db: Database; clock: Clock }): Promise<void> {
  const { db, clock } = options;
  app.post<{ Params: { siteId: string }; Body: { attributes: { locale: string } } }>(
    '/user-attribute/v2/user/:siteId',
    {
      schema: {
        params: { type: 'object', properties: { siteId: { type: 'string', pattern: SITE_ID_PATTERN } } },
        body: {
          type: 'object',
          required: ['attributes'],
          additionalProperties: false,
          properties: {
            attributes: {
              type: 'object',
              required: ['locale'],
              // Refused rather than silently dropped (Fastify strips `additionalProperties: false` keys).
              propertyNames: { enum: ['locale'] },
              properties: { locale: { type: 'string', pattern: LOCALE_PATTERN.source } },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const user = await requireSessionUser(db, request, reply, clock.now());
      await db.query(
        `insert into user_sites (user_id, site_id, attributes) values ($1, $2, $3)
         on conflict (user_id, site_id) do update set attributes = user_sites.attributes || excluded.attributes, updated_at = now()`,
        [user.userId, request.params.siteId, JSON.stringify(request.body.attributes)],
      );
      return { saved: true };
    },
  );
}
