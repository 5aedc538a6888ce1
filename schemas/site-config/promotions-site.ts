/**
 * SPEC §1: on the promotions hosts the site id is derived from host plus locale, `promotions_{locale}`;
 * SPEC §7: their configuration is the page-root `{locale}/account/configurations/promotions-{locale}.json`.
 * Shared so the gateway serves and the app asks for the same path (docs/decisions/0022-declared-calls.md).
 */
export const PROMOTIONS_SITE_PREFIX = 'promotions_';

const PROMOTIONS_SITE_ID = /^promotions_([a-z]{2}_[a-z]{2})$/;

/** The locale of a promotions site id, or null for any other site id. */
export function promotionsLocaleOf(siteId: string): string | null {
  return PROMOTIONS_SITE_ID.exec(siteId)?.[1] ?? null;
}

/** The page-root path of a promotions locale's configuration. */
export function promotionsConfigurationPath(locale: string): string {
  return `/${locale}/account/configurations/promotions-${locale}.json`;
}
