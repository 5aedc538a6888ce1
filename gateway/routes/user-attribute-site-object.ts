import type { FastifyInstance } from 'fastify';
import { SITE_ID_PATTERN } from '../../schemas/site-config/fixture-format';
import { requireSessionUser } from '../auth/session-cookies';
import type { Database } from '../db/database';
import type { Fixtures } from '../fixtures/load-fixtures';
import { HttpError } from '../http/errors';
import { saveWholeSiteObject, type SiteAttributes } from '../profile/site-attributes';
import type { Clock } from '../time/clock';
import { SITE_ATTRIBUTES_SCHEMA } from './user-attribute-schemas';

const SITE_OBJECT_KEYS: ReadonlySet<string> = new Set(['siteId', 'attributes', 'version']);

/**
 * SPEC §7 `POST user-attribute/user/attribute/{siteId}` with the user site object minus vopUsers
 * (ADR 0010): saved whole at the `version` it was read (409 ATTRIBUTES_CHANGED otherwise), each
 * changed key checked with the site's rules. The site-settings screen saves offer preferences here.
 */
export async function userAttributeSiteObjectRoutes(app: FastifyInstance, options: { db: Database; fixtures: Fixtures; clock: Clock }): Promise<void> {
  const { db, fixtures, clock } = options;
  app.post<{ Params: { siteId: string }; Body: { siteId: string; attributes: SiteAttributes; version: number } & Record<string, unknown> }>(
    '/user-attribute/user/attribute/:siteId',
    {
      schema: {
        params: { type: 'object', properties: { siteId: { type: 'string', pattern: SITE_ID_PATTERN } } },
        body: {
          type: 'object',
          required: ['siteId', 'attributes', 'version'],
          properties: { siteId: { type: 'string', maxLength: 64 }, attributes: SITE_ATTRIBUTES_SCHEMA, version: { type: 'integer', minimum: 0 } },
        },
      },
    },
    async (request, reply) => {
      const user = await requireSessionUser(db, request, reply, clock.now());
      const { siteId } = request.params;
      const fields: Record<string, string> = {};
      // SPEC §7 "minus vopUsers": that and any other extra member is refused by name, never stored.
      for (const key of Object.keys(request.body).filter((key) => !SITE_OBJECT_KEYS.has(key)).slice(0, 10)) fields[key.slice(0, 64)] = 'notAllowed';
      if (request.body.siteId !== siteId) fields.siteId = 'invalid';
      if (Object.keys(fields).length > 0) throw new HttpError(400, 'VALIDATION_FAILED', `These fields are not valid: ${Object.keys(fields).join(', ')}.`, fields);
      const context = { fixtures, userId: user.userId, siteId, today: clock.now() };
      return saveWholeSiteObject(db, context, request.body.attributes, request.body.version);
    },
  );
}
