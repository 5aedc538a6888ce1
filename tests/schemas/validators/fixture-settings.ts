/**
 * Site settings read from `fixtures/sites/*.json`, so the golden tables and properties follow the
 * real site configurations (DESIGN "tests discover sites by listing the folder").
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { featureConfigOf, type SiteConfig } from '../../../schemas/site-config/types';
import type { SchemaRuleOptions } from '../../../schemas/validators';

const SITES = fileURLToPath(new URL('../../../fixtures/sites/', import.meta.url));

export const SITE_IDS: readonly string[] = readdirSync(SITES)
  .filter((name) => name.endsWith('.json'))
  .map((name) => name.slice(0, -'.json'.length));

/** The `user_enrollment` settings of a site (SPEC §3). */
export function enrollmentOf(siteId: string): Readonly<Record<string, string>> {
  const site = JSON.parse(readFileSync(`${SITES}${siteId}.json`, 'utf8')) as SiteConfig;
  return featureConfigOf(site, 'user_enrollment');
}

export function phoneOptionsOf(siteId: string, locale = 'en_us'): SchemaRuleOptions {
  const settings = enrollmentOf(siteId);
  return { mask: settings.phone_mask, regexp: settings.phone_regexp, locale };
}

export function nationalIdOptionsOf(siteId: string): SchemaRuleOptions {
  const settings = enrollmentOf(siteId);
  return { nationalIdType: settings.national_id_type, mask: settings.national_id_mask, regexp: settings.national_id_regexp };
}

export function postalCodeOptionsOf(siteId: string): SchemaRuleOptions {
  const settings = enrollmentOf(siteId);
  return { mask: settings.postal_code_mask, regexp: settings.postal_code_regexp };
}
