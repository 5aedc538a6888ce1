import { SITE_ID_PATTERN } from '../../schemas/site-config/fixture-format';

/** A `siteId` path or query parameter, shaped as site fixtures name sites (ADR 0001). */
export const SITE_ID_PARAMS = { type: 'object', properties: { siteId: { type: 'string', pattern: SITE_ID_PATTERN } } } as const;
