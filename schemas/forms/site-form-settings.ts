import { featureConfigOf, levelOfCode, type PrivacyPolicyDisplay, type RequirementLevel, type SiteConfig } from '../site-config/types';
import {
  DEFAULT_BIN_LENGTH,
  DEFAULT_DATE_FORMAT,
  SITE_TABLE_BIN_LENGTH,
  SIX_DIGIT_BIN_LENGTH,
  DEFAULT_DOB_MIN_AGE,
  nationalIdMask,
  postalCodeMask,
} from '../validators';

/**
 * A site's configuration read once into the typed settings the form translator needs
 * (SPEC §3 "user_enrollment settings", "Field requirement levels"; §5; §9 defaults).
 */
export interface SiteFormSettings {
  /** Requirement level per attribute key of user_global_profile and user_site_profile. */
  levels: Readonly<Record<string, RequirementLevel>>;
  /** `ninedigitbin`'s length: `bin_length`, default 9 (SPEC §5, §9). */
  binLength: number;
  /** The `bin` attribute's length: `bin_length`, else the site table's default 8 (SPEC §5 "Site table default: length 8 … attribute name bin"). */
  siteTableBinLength: number;
  /**
   * `six_digit_verification` (SPEC §5 "Some sites require six-digit verification"): the bin field asks the
   * card's first six digits, whatever `bin_length` says, and the gateway verifies them against the BIN table (ADR 0001).
   */
  sixDigitVerification: boolean;
  phoneMask: string | null;
  phoneRegexp: string | null;
  /** The author's example value (`phone_example`, `national_id_example`, `postal_code_example`): the hint and the error show it. */
  phoneExample: string | null;
  nationalIdType: 'cpf' | 'ssn' | 'other';
  nationalIdMask: string | null;
  nationalIdRegexp: string | null;
  nationalIdExample: string | null;
  /** `national_id_uppercase`: letters are upper-cased as typed and before the gateway validates. */
  nationalIdUppercase: boolean;
  /** Null when the site gives a postal regexp alone (SPEC §5 mask default 00000-000 otherwise). */
  postalCodeMask: string | null;
  postalCodeRegexp: string | null;
  postalCodeExample: string | null;
  /** `postal_code_uppercase`, as `nationalIdUppercase`. */
  postalCodeUppercase: boolean;
  dateFormat: string;
  minAge: number;
  privacyPolicyDisplay: PrivacyPolicyDisplay | null;
  /** The site's privacy policy page the pp field links to; https only, so a link can never run script. */
  privacyPolicyUrl: string | null;
  sendSms: boolean;
  captchaRequired: boolean;
  marketingOptIns: readonly MarketingOptInKey[];
  allOfTheAbove: boolean;
  profileUpdatable: boolean;
}

/** SPEC §3 marketing opt-ins, in the order a person reads them. */
export const MARKETING_OPT_IN_KEYS = ['email', 'transactional', 'sms', 'online', 'cashback'] as const;
export type MarketingOptInKey = (typeof MARKETING_OPT_IN_KEYS)[number];

function integerSetting(value: string | undefined, fallback: number): number {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : fallback;
}

function textSetting(value: string | undefined): string | null {
  return value === undefined || value.trim() === '' ? null : value;
}

/**
 * SPEC §5 "Mask (00) 00000-0000 for pt_br, 0000 0000 for Qatar locales": the phone mask of a site that sets
 * no `phone_mask`, by the page locale (Qatar: ar_qa, en_qa). A site's own mask always wins; other locales
 * have none (the generic international pattern).
 */
export const LOCALE_PHONE_MASKS: Readonly<Record<string, string>> = { pt_br: '(00) 00000-0000', ar_qa: '0000 0000', en_qa: '0000 0000' };

export function phoneMaskOf(settings: SiteFormSettings, locale: string): string | null {
  return settings.phoneMask ?? LOCALE_PHONE_MASKS[locale] ?? null;
}

/** The length a site's bin field asks: six digits under six-digit verification, else the attribute's own length. */
export function binLengthOf(settings: SiteFormSettings, attribute: 'bin' | 'ninedigitbin'): number {
  if (settings.sixDigitVerification) return SIX_DIGIT_BIN_LENGTH;
  return attribute === 'bin' ? settings.siteTableBinLength : settings.binLength;
}

export function readSiteFormSettings(site: SiteConfig): SiteFormSettings {
  const enrollment = featureConfigOf(site, 'user_enrollment');
  const optIns = featureConfigOf(site, 'marketing_optins');
  const panCapture = featureConfigOf(site, 'pan_capture');
  const levels: Record<string, RequirementLevel> = {};
  for (const feature of ['user_global_profile', 'user_site_profile'] as const) {
    for (const [key, code] of Object.entries(featureConfigOf(site, feature))) {
      const level = levelOfCode(code);
      if (level) levels[key] = level;
    }
  }
  const nationalIdType = enrollment.national_id_type === 'cpf' || enrollment.national_id_type === 'ssn' ? enrollment.national_id_type : 'other';
  const privacy = enrollment.privacy_policy_display;
  return {
    levels,
    binLength: integerSetting(enrollment.bin_length, DEFAULT_BIN_LENGTH),
    siteTableBinLength: integerSetting(enrollment.bin_length, SITE_TABLE_BIN_LENGTH),
    sixDigitVerification: enrollment.six_digit_verification === 'true',
    phoneMask: textSetting(enrollment.phone_mask),
    phoneRegexp: textSetting(enrollment.phone_regexp),
    phoneExample: textSetting(enrollment.phone_example),
    nationalIdType,
    nationalIdMask: nationalIdMask(nationalIdType, textSetting(enrollment.national_id_mask) ?? undefined) ?? null,
    nationalIdRegexp: textSetting(enrollment.national_id_regexp),
    nationalIdExample: textSetting(enrollment.national_id_example),
    nationalIdUppercase: enrollment.national_id_uppercase === 'true',
    postalCodeMask:
      postalCodeMask({ mask: textSetting(enrollment.postal_code_mask) ?? undefined, regexp: textSetting(enrollment.postal_code_regexp) ?? undefined }) ?? null,
    postalCodeRegexp: textSetting(enrollment.postal_code_regexp),
    postalCodeExample: textSetting(enrollment.postal_code_example),
    postalCodeUppercase: enrollment.postal_code_uppercase === 'true',
    dateFormat: textSetting(enrollment.date_format) ?? DEFAULT_DATE_FORMAT,
    minAge: integerSetting(enrollment.dob_min_age, DEFAULT_DOB_MIN_AGE),
    privacyPolicyDisplay: privacy === 'A' || privacy === 'B' || privacy === 'C' ? privacy : null,
    privacyPolicyUrl: /^https:\/\/[^\s/?#]+/.test(enrollment.privacy_policy_url ?? '') ? (enrollment.privacy_policy_url ?? null) : null,
    sendSms: enrollment.send_sms === 'true',
    captchaRequired: enrollment.captcha_required === 'true',
    marketingOptIns: MARKETING_OPT_IN_KEYS.filter((key) => optIns[key] === 'true'),
    allOfTheAbove: optIns.all_of_the_above !== 'false',
    // SPEC §6: profile update depends on updatable (default true).
    profileUpdatable: panCapture.updatable !== 'false',
  };
}
