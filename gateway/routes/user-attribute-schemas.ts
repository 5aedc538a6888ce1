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
