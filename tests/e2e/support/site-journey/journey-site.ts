import { readFileSync } from 'node:fs';
import { cardConfigOf, type CardConfig } from '../../../../schemas/cards/card-config';
import { buildFormSchema } from '../../../../schemas/forms/build-form-schema';
import type { FormSchema } from '../../../../schemas/forms/json-schema';
import { readSiteFormSettings, type SiteFormSettings } from '../../../../schemas/forms/site-form-settings';
import { featureConfigOf, LEVEL_BY_CODE, type LevelCode, type RequirementLevel, type SiteConfig } from '../../../../schemas/site-config/types';
import { REPO_ROOT } from '../paths';

/** The page locale of every journey: SPEC §2's default locale, whose content every site has. */
export const JOURNEY_LOCALE = 'en_us';

/** The en_us content the gateway serves (fixtures/content), so buttons are found by their own text. */
const CONTENT = JSON.parse(readFileSync(`${REPO_ROOT}/fixtures/content/${JOURNEY_LOCALE}.json`, 'utf8')) as Record<string, Record<string, string>>;

export function contentText(group: string, key: string, values: Record<string, string> = {}): string {
  const text = CONTENT[group]?.[key];
  if (text === undefined) throw new Error(`no content ${JOURNEY_LOCALE} ${group}.${key}`);
  return text.replace(/\{\{(\w+)\}\}/g, (_match, name: string) => values[name] ?? '');
}

/**
 * What a site's configuration says its journey is (SPEC §3 feature configurations), read through
 * the same `schemas/` code the app and the gateway use, so the matrix never branches on a site id.
 */
export interface JourneySite {
  site: SiteConfig;
  siteId: string;
  sso: boolean;
  /** SPEC §3 site_auth_profile login_otp: none, email, sms or choice. */
  loginOtp: string;
  mfaRequired: boolean;
  /** SPEC §2 add-pan: the pan level at sign-up (Mandatory or Optional go through add-pan). */
  panAtSignUp: RequirementLevel;
  cards: CardConfig;
  /** SPEC §3 cms tenant vpp: the standalone card form. */
  standaloneCards: boolean;
  settings: SiteFormSettings;
  registration: FormSchema;
  editProfile: FormSchema;
}

export function journeySiteOf(site: SiteConfig): JourneySite {
  const auth = featureConfigOf(site, 'site_auth_profile');
  return {
    site,
    siteId: site.siteId,
    sso: auth.auth_mechanism === 'SSO',
    loginOtp: auth.login_otp ?? 'none',
    mfaRequired: auth.mfa === 'required',
    panAtSignUp: LEVEL_BY_CODE[featureConfigOf(site, 'user_asset_profile').pan as LevelCode] ?? 'None',
    cards: cardConfigOf(featureConfigOf(site, 'pan_capture')),
    standaloneCards: featureConfigOf(site, 'cms').tenant === 'vpp',
    settings: readSiteFormSettings(site),
    registration: buildFormSchema(site, JOURNEY_LOCALE, 'registration'),
    editProfile: buildFormSchema(site, JOURNEY_LOCALE, 'edit-profile'),
  };
}
