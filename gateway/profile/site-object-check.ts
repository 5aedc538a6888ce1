import { HttpError } from '../http/errors';

/** The members of a user site object as `user-attribute/user/attribute/{siteId}` and its concierge twin take it (ADR 0010, ADR 0014). */
const SITE_OBJECT_KEYS: ReadonlySet<string> = new Set(['siteId', 'attributes', 'version']);

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
