/**
 * What a site fixture can say that the schema accepts but the app cannot use
 * (docs/decisions/0001-site-fixture-format.md, "Rules beyond the format"): settings that would break
 * a screen or leave it empty at run time are errors; settings nothing reads are warnings. Each rule
 * reads what the app and the gateway read (`featureConfigOf` and `readSiteFormSettings`), so a rule
 * here is one the running portal would otherwise teach the author by failing.
 */
import { FEATURE_SETTINGS } from './fixture-format';
import { FEATURE_NAMES, levelOfCode, type FeatureName, type RequirementLevel } from './types';

export type Segment = string | number;

/** One rule's finding inside a fixture; `code` is stable so tests and tools can tell the rules apart. */
export interface RuleFinding {
  code: string;
  at: Segment[];
  expected: string;
  actual?: string;
}

/** SPEC §3 card config options: without all three the card module throws "Missing required options" (SPEC §8). */
export const CARD_MODULE_OPTION_SETTINGS = ['assetsUrl', 'assetsValidationUrl', 'updateAssetUrl'] as const;
/** What an SSO site needs so the gateway can send its people to their identity provider (ADR 0015, gateway/sso/sso-sites.ts). */
export const SSO_SETTINGS = ['issuer_url', 'client_id', 'redirect_uris'] as const;
/** What a SAML SSO site needs (docs/decisions/0028-sso-saml.md, gateway/sso/saml-sites.ts), besides its identity provider's metadata. */
export const SAML_SETTINGS = ['saml_sp_entity_id', 'saml_acs_url'] as const;
/** The identity provider's metadata: by URL or inline, exactly one. */
export const SAML_METADATA_SETTINGS = ['saml_idp_metadata_url', 'saml_idp_metadata'] as const;
const SAML_ONLY_SETTINGS = [...SAML_SETTINGS, ...SAML_METADATA_SETTINGS, 'saml_email_attribute'] as const;
/** SPEC §3 marketing opt-ins the form offers (schemas/forms/site-form-settings.ts). */
const OFFERED_OPT_INS = ['email', 'transactional', 'sms', 'online', 'cashback'] as const;

/**
 * SPEC §3 attribute keys the gateway stores for other systems but no form ever shows
 * (schemas/forms/build-form-schema.ts has no field for them), so their level decides nothing.
 */
export const DATA_ONLY_ATTRIBUTES = ['redeemed_offers', 'campaigns', 'marketing_platform_level_optin', 'customerOriginDetails'] as const;

/**
 * SPEC §5 "Profile form omits password, confirm password, email, national id": at ProfileOptional
 * (left out of registration) such a field is asked nowhere.
 */
const OMITTED_FROM_PROFILE = ['password', 'confirm_password', 'email', 'nationalId'] as const;

/** user_enrollment settings and the attribute whose field they shape (schemas/forms/build-form-schema.ts). */
const ENROLLMENT_SETTINGS_BY_FIELD: ReadonlyArray<{ field: 'phone' | 'nationalId' | 'zipcode' | 'bin' | 'dob'; keys: readonly string[] }> = [
  { field: 'phone', keys: ['phone_mask', 'phone_regexp', 'phone_example'] },
  { field: 'nationalId', keys: ['national_id_mask', 'national_id_regexp', 'national_id_example', 'national_id_uppercase', 'national_id_type'] },
  { field: 'zipcode', keys: ['postal_code_mask', 'postal_code_regexp', 'postal_code_example', 'postal_code_uppercase'] },
  // ADR 0001 "Card settings": six_digit_verification reshapes the bin field and is checked on its value only.
  { field: 'bin', keys: ['bin_length', 'six_digit_verification'] },
  { field: 'dob', keys: ['date_format', 'dob_min_age'] },
];
/** pan_capture texts only the standalone card form (SPEC §2 isVpp, cms tenant "vpp") shows (src/screens/cards/StandaloneCards.tsx). */
const STANDALONE_CARD_TEXTS = ['optInText', 'panCancelButtonText'] as const;

interface FeatureAt {
  index: number;
  settings: Readonly<Record<string, unknown>>;
}

/** The features of a parsed fixture by name (first of each; duplicates are the format check's mistake). */
function featuresOf(root: Readonly<Record<string, unknown>>): Map<string, FeatureAt> {
  const features = new Map<string, FeatureAt>();
  const list = Array.isArray(root.siteFeatureConfigurations) ? (root.siteFeatureConfigurations as unknown[]) : [];
  list.forEach((feature, index) => {
    if (!isRecord(feature) || typeof feature.name !== 'string' || !isRecord(feature.featureConfig) || features.has(feature.name)) return;
    features.set(feature.name, { index, settings: feature.featureConfig });
  });
  return features;
}

const settingAt = (feature: FeatureAt, key?: string): Segment[] => [
  'siteFeatureConfigurations',
  feature.index,
  'featureConfig',
  ...(key === undefined ? [] : [key]),
];

/** The level of an attribute key as the form reads it: user_global_profile and user_site_profile together. */
function levelsOf(features: Map<string, FeatureAt>): Map<string, { level: RequirementLevel; at: Segment[] }> {
  const levels = new Map<string, { level: RequirementLevel; at: Segment[] }>();
  for (const name of ['user_global_profile', 'user_site_profile']) {
    const feature = features.get(name);
    if (feature === undefined) continue;
    for (const [key, code] of Object.entries(feature.settings)) {
      const level = levelOfCode(code);
      if (level !== undefined) levels.set(key, { level, at: settingAt(feature, key) });
    }
  }
  return levels;
}

const isShown = (level: RequirementLevel | undefined): boolean => level !== undefined && level !== 'None';

/** Errors: what would throw or render nothing at run time. */
export function runtimeErrors(root: unknown): RuleFinding[] {
  if (!isRecord(root)) return [];
  const features = featuresOf(root);
  const levels = levelsOf(features);
  const findings: RuleFinding[] = [];

  const panCapture = features.get('pan_capture');
  if (panCapture !== undefined) {
    for (const key of CARD_MODULE_OPTION_SETTINGS) {
      if (typeof panCapture.settings[key] === 'string' && panCapture.settings[key] !== '') continue;
      findings.push({
        code: 'pan-capture-option-missing',
        at: settingAt(panCapture, key),
        expected: `pan_capture.${key}: the card screens need assetsUrl, assetsValidationUrl and updateAssetUrl, or they fail with "Missing required options for ${typeof panCapture.settings.name === 'string' ? panCapture.settings.name : ''}PanModule" (SPEC §8)`,
        actual: 'missing',
      });
    }
  }

  const assets = features.get('user_asset_profile');
  const panLevel = assets === undefined ? undefined : levelOfCode(assets.settings.pan);
  if (assets !== undefined && panCapture === undefined && (panLevel === 'Mandatory' || panLevel === 'Optional')) {
    findings.push({
      code: 'cards-without-pan-capture',
      at: settingAt(assets, 'pan'),
      expected: "a pan_capture feature: registration's add-pan step captures cards with it (SPEC §2 add-pan, §3 card config)",
      actual: `pan is ${panLevel} and the site has no pan_capture`,
    });
  }

  const optIns = features.get('marketing_optins');
  const offered = optIns === undefined ? [] : OFFERED_OPT_INS.filter((key) => optIns.settings[key] === 'true');
  const optInLevel = levels.get('marketing_opt_ins');
  if (optIns !== undefined && offered.length > 0 && optInLevel === undefined) {
    findings.push({
      code: 'opt-ins-without-level',
      at: settingAt(optIns),
      expected: 'a "marketing_opt_ins" level in user_site_profile (e.g. "1" Optional): without it the offered opt-ins are never shown',
      actual: `${offered.join(', ')} offered, no marketing_opt_ins level`,
    });
  }
  if (optInLevel !== undefined && isShown(optInLevel.level) && offered.length === 0) {
    findings.push({
      code: 'level-without-opt-ins',
      at: optInLevel.at,
      expected: `a marketing_optins feature offering at least one of ${OFFERED_OPT_INS.join(', ')} ("true"): the opt-in block shows nothing without one`,
      actual: optIns === undefined ? 'no marketing_optins feature' : 'no opt-in offered',
    });
  }

  const auth = features.get('site_auth_profile');
  if (auth !== undefined && auth.settings.auth_mechanism === 'SSO' && auth.settings.protocol === 'saml') {
    const given = (key: string) => typeof auth.settings[key] === 'string' && auth.settings[key] !== '';
    for (const key of SAML_SETTINGS) {
      if (given(key)) continue;
      findings.push({
        code: 'saml-setting-missing',
        at: settingAt(auth, key),
        expected: `site_auth_profile.${key}: a SAML site needs saml_sp_entity_id and saml_acs_url, which its identity provider knows it by (ADR 0028)`,
        actual: 'missing',
      });
    }
    const metadata = SAML_METADATA_SETTINGS.filter(given);
    if (metadata.length !== 1) {
      findings.push({
        code: 'saml-metadata',
        at: settingAt(auth, metadata[1] ?? 'saml_idp_metadata_url'),
        expected:
          "site_auth_profile.saml_idp_metadata_url or saml_idp_metadata, exactly one: the identity provider's metadata names its sign-in URL and signing certificates (ADR 0028)",
        actual: metadata.length === 0 ? 'neither' : 'both',
      });
    }
  } else if (auth !== undefined && auth.settings.auth_mechanism === 'SSO') {
    for (const key of SSO_SETTINGS) {
      if (typeof auth.settings[key] === 'string' && auth.settings[key] !== '') continue;
      findings.push({
        code: 'sso-setting-missing',
        at: settingAt(auth, key),
        expected: `site_auth_profile.${key}: an SSO site needs issuer_url, client_id and redirect_uris, or every sign-in ends at redirect-sso with no identity provider to go to (ADR 0015)`,
        actual: 'missing',
      });
    }
  }
  return findings;
}

/** Warnings: settings the schema accepts that nothing reads, each at its own JSON path. */
export function noEffectWarnings(root: unknown): RuleFinding[] {
  if (!isRecord(root)) return [];
  const features = featuresOf(root);
  const levels = levelsOf(features);
  const findings: RuleFinding[] = [];
  const noEffect = (at: Segment[], why: string, actual?: string): void => {
    findings.push({ code: 'no-effect', at, expected: `nothing here, as this setting has no effect: ${why}`, ...(actual === undefined ? {} : { actual }) });
  };

  for (const key of DATA_ONLY_ATTRIBUTES) {
    const found = levels.get(key);
    if (found === undefined) continue;
    findings.push({
      code: 'data-only-attribute',
      at: found.at,
      expected: `no level: ${key} is never shown, it is a data-only attribute no form asks for (ADR 0001 "Data-only attributes")${found.level === 'Mandatory' ? ', so a Mandatory level has no effect' : ''}`,
      actual: found.level,
    });
  }

  const auth = features.get('site_auth_profile');
  if (auth !== undefined && auth.settings.auth_mechanism !== 'SSO') {
    // connected_app names the app on redirect-sso, a page only an SSO site has (ADR 0001).
    for (const key of [...SSO_SETTINGS, 'connected_app', 'protocol', ...SAML_ONLY_SETTINGS]) {
      if (auth.settings[key] !== undefined) noEffect(settingAt(auth, key), `${key} is read only when auth_mechanism is "SSO"`);
    }
  } else if (auth !== undefined && auth.settings.protocol === 'saml') {
    for (const key of [...SSO_SETTINGS, 'client_auth']) {
      if (auth.settings[key] !== undefined)
        noEffect(settingAt(auth, key), `${key} is an OpenID Connect setting, and this site signs in with SAML (protocol "saml")`);
    }
  } else if (auth !== undefined) {
    for (const key of SAML_ONLY_SETTINGS) {
      if (auth.settings[key] !== undefined) noEffect(settingAt(auth, key), `${key} is read only when protocol is "saml"`);
    }
  }

  // ADR 0009 "Breached passwords": vba.enabled "false" turns the whole breached-password flow off, the check with it.
  const vba = features.get('vba');
  if (vba !== undefined && vba.settings.enabled === 'false' && vba.settings.compromised_password_check !== undefined) {
    noEffect(settingAt(vba, 'compromised_password_check'), 'compromised_password_check is read only when vba.enabled is not "false"');
  }

  const mobileApp = features.get('mobile_app');
  if (mobileApp !== undefined && mobileApp.settings.android_store_url !== undefined && !mobileApp.settings.app_scheme) {
    noEffect(settingAt(mobileApp, 'android_store_url'), 'android_store_url is the fallback of app_scheme, and the site has none');
  }

  const optIns = features.get('marketing_optins');
  const optInLevel = levels.get('marketing_opt_ins');
  if (optIns !== undefined && optInLevel !== undefined && !isShown(optInLevel.level)) {
    noEffect(settingAt(optIns), 'marketing_opt_ins is None, so no opt-in is shown');
  }

  // widgets/fields/OptInListField.tsx draws "All of the above" only over two opt-ins or more.
  if (optIns !== undefined && optIns.settings.all_of_the_above === 'true' && OFFERED_OPT_INS.filter((key) => optIns.settings[key] === 'true').length < 2) {
    noEffect(settingAt(optIns, 'all_of_the_above'), '"All of the above" is shown only when two opt-ins or more are offered');
  }

  const panCapture = features.get('pan_capture');
  if (panCapture !== undefined && features.get('cms')?.settings.tenant !== 'vpp') {
    for (const key of STANDALONE_CARD_TEXTS) {
      if (panCapture.settings[key] !== undefined)
        noEffect(settingAt(panCapture, key), `${key} is shown only by the standalone card form of a site whose cms tenant is "vpp" (SPEC §2)`);
    }
  }

  const address = levels.get('address');
  for (const [key, { at }] of levels) {
    if (key.startsWith('address.') && !isShown(address?.level)) {
      noEffect(at, `an address part is shown inside the address block, which needs an "address" level other than None`);
    }
  }

  for (const key of OMITTED_FROM_PROFILE) {
    const found = levels.get(key);
    if (found?.level === 'ProfileOptional') {
      noEffect(found.at, `${key} is never asked: registration leaves ProfileOptional out and edit-profile omits ${key} (SPEC §5)`, 'ProfileOptional');
    }
  }

  const enrollment = features.get('user_enrollment');
  if (enrollment !== undefined) {
    const shown = (key: string): boolean => isShown(levels.get(key)?.level);
    // A zipcode without its own level takes the address's (build-form-schema.ts: zipcode is a part an address needs).
    const zipcodeLevel = levels.get('address.zipcode')?.level ?? address?.level;
    const fieldShown: Record<string, boolean> = {
      phone: shown('phone'),
      nationalId: shown('nationalId'),
      zipcode: isShown(address?.level) && isShown(zipcodeLevel),
      bin: shown('bin') || shown('ninedigitbin'),
      dob: shown('dob'),
    };
    const fieldName: Record<string, string> = { phone: 'phone', nationalId: 'nationalId', zipcode: 'address.zipcode', bin: 'bin or ninedigitbin', dob: 'dob' };
    // SPEC §5: cpf and ssn numbers have their own mask and check rules; the site's mask, regexp and upper-casing are not read.
    const idType = enrollment.settings.national_id_type;
    if (fieldShown.nationalId && (idType === 'cpf' || idType === 'ssn')) {
      for (const key of ['national_id_mask', 'national_id_regexp', 'national_id_uppercase']) {
        if (enrollment.settings[key] !== undefined)
          noEffect(settingAt(enrollment, key), `a ${idType} national id is formatted and checked by the ${idType} rules (SPEC §5), never by ${key}`);
      }
    }
    if (enrollment.settings.privacy_policy_url !== undefined && enrollment.settings.privacy_policy_display === undefined) {
      noEffect(settingAt(enrollment, 'privacy_policy_url'), 'the policy is linked from the registration form only when privacy_policy_display is set');
    }
    for (const { field, keys } of ENROLLMENT_SETTINGS_BY_FIELD) {
      if (fieldShown[field]) continue;
      for (const key of keys) {
        if (enrollment.settings[key] !== undefined)
          noEffect(settingAt(enrollment, key), `${key} shapes the ${fieldName[field]} field, which this site never shows`);
      }
    }
  }
  return findings;
}

// ---------------------------------------------------------------------------------------------
// Did you mean

/** Levenshtein distance, for near-miss spellings of keys and feature names. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Near misses within two edits, closest first. */
export function nearMisses(word: string, candidates: readonly string[]): string[] {
  return candidates
    .map((candidate) => ({ candidate, distance: editDistance(word.toLowerCase(), candidate.toLowerCase()) }))
    .filter(({ distance }) => distance <= 2)
    .sort((a, b) => a.distance - b.distance)
    .map(({ candidate }) => candidate);
}

/** The features other than `feature` that have `key` as a setting. */
export function featuresHavingKey(key: string, feature: string): FeatureName[] {
  return FEATURE_NAMES.filter((name) => name !== feature && Object.hasOwn(FEATURE_SETTINGS[name], key));
}

/** " (did you mean …?)" for an unknown setting `key` of `feature`, or "". */
export function unknownKeyHint(key: string, feature: string | undefined, keysHere: readonly string[]): string {
  const elsewhere = featuresHavingKey(key, feature ?? '');
  if (feature !== undefined && elsewhere.length > 0) {
    return `; did you mean ${elsewhere.map((name) => `\`${name}\``).join(' or ')}? "${key}" is a setting of ${elsewhere.join(' and ')}`;
  }
  const close = nearMisses(key, keysHere);
  return close.length > 0 ? `; did you mean ${close.map((name) => `"${name}"`).join(' or ')}?` : '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
