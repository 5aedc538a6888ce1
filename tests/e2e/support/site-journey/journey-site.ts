import { readdirSync, readFileSync } from 'node:fs';
import { cardConfigOf, type CardConfig } from '../../../../schemas/cards/card-config';
import { buildFormSchema } from '../../../../schemas/forms/build-form-schema';
import type { FormSchema } from '../../../../schemas/forms/json-schema';
import { readSiteFormSettings, type SiteFormSettings } from '../../../../schemas/forms/site-form-settings';
import { contentFallbackChain, mergeContentTexts } from '../../../../schemas/locales/content-fallback';
import { DEFAULT_LOCALE } from '../../../../schemas/locales/locale-table';
import { featureConfigOf, LEVEL_BY_CODE, type LevelCode, type RequirementLevel, type SiteConfig } from '../../../../schemas/site-config/types';
import { REPO_ROOT } from '../paths';

type Content = Record<string, Record<string, string>>;
const CONTENT_DIR = `${REPO_ROOT}/fixtures/content`;
const CONTENT_FILES = readdirSync(CONTENT_DIR)
  .filter((name) => name.endsWith('.json'))
  .map((name) => name.slice(0, -'.json'.length));
const readContent = (locale: string): Content => JSON.parse(readFileSync(`${CONTENT_DIR}/${locale}.json`, 'utf8')) as Content;

export type ContentLookup = (group: string, key: string, values?: Record<string, string>) => string;

/**
 * The texts the gateway serves for `locale`: its own file, then its language's nearest files, then
 * en_us, key by key (ADR 0013 "Content fallback by language", the same `contentFallbackChain` the
 * gateway reads), so a page in any language is driven by its own words, never by English, and a
 * site in pt_pt finds the pt_br words its pages show.
 */
export function contentTextsIn(locale: string): ContentLookup {
  const chain = contentFallbackChain(locale, CONTENT_FILES).map(readContent);
  const groups = new Map<string, Record<string, string>>();
  return (group, key, values = {}) => {
    if (!groups.has(group)) groups.set(group, mergeContentTexts(chain.map((content) => content[group])));
    const text = groups.get(group)![key];
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
  /** ADR 0028: an SSO site on SAML, whose identity provider is the test SAML identity provider's page. */
  saml: boolean;
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
    saml: auth.auth_mechanism === 'SSO' && auth.protocol === 'saml',
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
