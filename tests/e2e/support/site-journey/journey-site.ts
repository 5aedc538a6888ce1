import { existsSync, readFileSync } from 'node:fs';
import { cardConfigOf, type CardConfig } from '../../../../schemas/cards/card-config';
import { buildFormSchema } from '../../../../schemas/forms/build-form-schema';
import type { FormSchema } from '../../../../schemas/forms/json-schema';
import { readSiteFormSettings, type SiteFormSettings } from '../../../../schemas/forms/site-form-settings';
import { DEFAULT_LOCALE } from '../../../../schemas/locales/locale-table';
import { featureConfigOf, LEVEL_BY_CODE, type LevelCode, type RequirementLevel, type SiteConfig } from '../../../../schemas/site-config/types';
import { REPO_ROOT } from '../paths';

type Content = Record<string, Record<string, string>>;
const readContent = (locale: string): Content => JSON.parse(readFileSync(`${REPO_ROOT}/fixtures/content/${locale}.json`, 'utf8')) as Content;
const EN_US = readContent(DEFAULT_LOCALE);

export type ContentLookup = (group: string, key: string, values?: Record<string, string>) => string;

/**
 * The texts the gateway serves for `locale` (fixtures/content/{locale}.json, en_us for a key or a
 * locale it lacks), so a page in any language is driven by its own words, never by English.
 */
export function contentTextsIn(locale: string): ContentLookup {
  const file = `${REPO_ROOT}/fixtures/content/${locale}.json`;
  const own = locale !== DEFAULT_LOCALE && existsSync(file) ? readContent(locale) : {};
  return (group, key, values = {}) => {
    const text = own[group]?.[key] ?? EN_US[group]?.[key];
    if (text === undefined) throw new Error(`no content ${locale} ${group}.${key}`);
    return text.replace(/\{\{(\w+)\}\}/g, (_match, name: string) => values[name] ?? '');
  };
}

/** An en_us text (the default locale's content, which every site has). */
export const contentText: ContentLookup = contentTextsIn(DEFAULT_LOCALE);

/**
 * What a site's configuration says its journey is (SPEC §3 feature configurations), read through
 * the same `schemas/` code the app and the gateway use, so the matrix never branches on a site id.
 */
export interface JourneySite {
  site: SiteConfig;
  siteId: string;
  /** The page locale the journey runs in: one the site is for (fixture site_locales). */
  locale: string;
  /** The content of that locale, as the gateway serves it. */
  text: ContentLookup;
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

export function journeySiteOf(site: SiteConfig, locale: string = DEFAULT_LOCALE): JourneySite {
  const auth = featureConfigOf(site, 'site_auth_profile');
  return {
    site,
    siteId: site.siteId,
    locale,
    text: contentTextsIn(locale),
    sso: auth.auth_mechanism === 'SSO',
    loginOtp: auth.login_otp ?? 'none',
    mfaRequired: auth.mfa === 'required',
    panAtSignUp: LEVEL_BY_CODE[featureConfigOf(site, 'user_asset_profile').pan as LevelCode] ?? 'None',
    cards: cardConfigOf(featureConfigOf(site, 'pan_capture')),
    standaloneCards: featureConfigOf(site, 'cms').tenant === 'vpp',
    settings: readSiteFormSettings(site),
    registration: buildFormSchema(site, locale, 'registration'),
    editProfile: buildFormSchema(site, locale, 'edit-profile'),
  };
}
