import { HttpError } from '../http/errors';

/**
 * The outer shape of a site attributes object in a request body (ADR 0010). Each value is checked
 * with the site's own rules afterwards; this only bounds what reaches them, so a key name is
 * never a novel of its own in an error answer.
 */
export const SITE_ATTRIBUTES_SCHEMA = {
  type: 'object',
  maxProperties: 64,
  propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' },
} as const;

/**
 * The body of a v2 save of changed attributes (ADR 0010), for the card holder's call and the agent's
 * alike. Extra members are refused rather than silently dropped (Fastify strips
 * `additionalProperties: false` keys).
 */
export const CHANGED_ATTRIBUTES_BODY = {
  type: 'object',
  required: ['attributes'],
  propertyNames: { enum: ['attributes', 'baseVersion'] },
  properties: { attributes: SITE_ATTRIBUTES_SCHEMA, baseVersion: { type: 'integer', minimum: 0 } },
} as const;

/** The members of a user site object as `user-attribute/user/attribute/{siteId}` takes it (ADR 0010). */
const SITE_OBJECT_KEYS: ReadonlySet<string> = new Set(['siteId', 'attributes', 'version']);

/** The body of a whole user site object save, for the card holder's call and the agent's alike. */
export const SITE_OBJECT_SCHEMA = {
  type: 'object',
  required: ['siteId', 'attributes', 'version'],
  properties: { siteId: { type: 'string', maxLength: 64 }, attributes: SITE_ATTRIBUTES_SCHEMA, version: { type: 'integer', minimum: 0 } },
} as const;

/**
 * SPEC §7 "user site object minus vopUsers": that and any other extra member is refused by name,
 * never stored, and the object must be for the site of the path; one 400 VALIDATION_FAILED names all.
 */
export function assertSiteObjectFor(siteId: string, body: Readonly<Record<string, unknown>>): void {
  const fields: Record<string, string> = {};
  for (const key of Object.keys(body)
    .filter((key) => !SITE_OBJECT_KEYS.has(key))
    .slice(0, 10))
    fields[key.slice(0, 64)] = 'notAllowed';
  if (body.siteId !== siteId) fields.siteId = 'invalid';
  if (Object.keys(fields).length > 0) throw new HttpError(400, 'VALIDATION_FAILED', `These fields are not valid: ${Object.keys(fields).join(', ')}.`, fields);
}
