import { DEFAULT_LOCALE } from '../locales/locale-table';
import { featureConfigOf, type SiteConfig } from './types';

/**
 * The locales a site is for (fixture feature `site_locales`, ADR 0001), its own first; a site that
 * declares none is for SPEC §9's default locale.
 */
export function siteLocalesOf(site: SiteConfig): string[] {
  const declared = featureConfigOf(site, 'site_locales').locales;
  return declared === undefined ? [DEFAULT_LOCALE] : declared.split(' ');
}
