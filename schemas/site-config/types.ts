/**
 * The site-config service's answer (SPEC §3 "Site config"), exactly as a fixture file holds it.
 * Settings arrive as strings, as a real config service sends them; the schema engine reads them.
 */
export interface SiteFeatureConfiguration {
  name: FeatureName;
  featureConfig: Record<string, string>;
}

/** A site id as the URL's issuer segment and a fixture's file name carry it (ADR 0002). */
export const SITE_ID_PATTERN = '^[a-z0-9][a-z0-9_-]{0,63}$';

export interface SiteConfig {
  name: string;
  siteId: string;
  /** SPEC §3: default theme classic; the themes are `SITE_THEMES` (site-brand.ts). */
  theme: string;
  siteFeatureConfigurations: SiteFeatureConfiguration[];
}

/** SPEC §3 "Site feature configurations (by name)". */
export const FEATURE_NAMES = [
  'pan_capture',
  'user_site_profile',
  'user_global_profile',
  'user_asset_profile',
  'user_enrollment',
  'marketing_optins',
  'vba',
  'site_auth_profile',
  'cms',
  'allow_delete_profile',
  // Ours (ADR 0001): the native app a §2 mobile deep link opens.
  'mobile_app',
  // Ours (ADR 0001): the locales the site is for, its own first.
  'site_locales',
  // Ours (ADR 0020): the site's colours and logo.
  'site_brand',
] as const;
export type FeatureName = (typeof FEATURE_NAMES)[number];

/** SPEC §3 "Field requirement levels": server codes and the privacy-policy display letters. */
export const LEVEL_CODES = ['0', '1', '2', '3', '4', '5'] as const;
export type LevelCode = (typeof LEVEL_CODES)[number];
export type RequirementLevel = 'Mandatory' | 'Optional' | 'None' | 'ProfileOptional';
export const LEVEL_BY_CODE: Readonly<Record<LevelCode, RequirementLevel>> = {
  '0': 'Mandatory',
  '1': 'Optional',
  '2': 'None',
  '3': 'ProfileOptional',
  '4': 'None',
  '5': 'Mandatory',
};

/** A setting's requirement level; undefined for a value that is no level code (site configurations are JSON). */
export function levelOfCode(code: unknown): RequirementLevel | undefined {
  return (LEVEL_CODES as readonly unknown[]).includes(code) ? LEVEL_BY_CODE[code as LevelCode] : undefined;
}
export const PRIVACY_POLICY_DISPLAYS = ['A', 'B', 'C'] as const;
export type PrivacyPolicyDisplay = (typeof PRIVACY_POLICY_DISPLAYS)[number];

/** The settings of one feature, or an empty map when the site does not configure it. */
export function featureConfigOf(site: SiteConfig, name: FeatureName): Readonly<Record<string, string>> {
  return site.siteFeatureConfigurations.find((feature) => feature.name === name)?.featureConfig ?? {};
}
