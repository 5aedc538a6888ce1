import { PSEUDO_LOCALE } from './pseudo-locale';

/**
 * The locales the portal serves (SPEC §9 "Over 150 locale codes supported"): every `xx_yy` code with
 * its BCP 47 tag, its region (SPEC §3 "Locales are grouped into regions NA, LAC, AP, CEMEA, Europe",
 * used for offer categories and the analytics tag) and its writing direction, decided by the
 * language's script (SPEC §2 "Page language follows the locale"). Pure data, shared by the app and
 * the gateway. The rule for anything not in the table: docs/decisions/0013-locales-content-analytics-captcha.md.
 */
export type LocaleRegion = 'NA' | 'LAC' | 'AP' | 'CEMEA' | 'Europe';
export type TextDirection = 'ltr' | 'rtl';

export interface LocaleEntry {
  /** SPEC §2 form, `pt_br`. */
  code: string;
  /** BCP 47, what `lang` and `Intl` want: `pt-BR`. */
  tag: string;
  language: string;
  country: string;
  /** ISO 15924 script the language is written in here (`Arab`, `Latn`, `Hant`, …). */
  script: string;
  region: LocaleRegion;
  direction: TextDirection;
}

/** SPEC §9 "Default locale en_us". */
export const DEFAULT_LOCALE = 'en_us';

/** SPEC §2: a locale looks like xx_yy (in the table or not; ADR 0013 says what an unlisted one gets). */
export const LOCALE_ID_PATTERN = '^[a-z]{2}_[a-z]{2}$';
export const LOCALE_PATTERN = new RegExp(LOCALE_ID_PATTERN);

/** Countries by region (the card network's regions); every country of the locale table is here. */
const REGION_COUNTRIES: Readonly<Record<LocaleRegion, readonly string[]>> = {
  NA: ['us', 'ca'],
  LAC: [
    'ag',
    'ar',
    'aw',
    'bb',
    'bo',
    'br',
    'bs',
    'bz',
    'cl',
    'co',
    'cr',
    'cu',
    'cw',
    'dm',
    'do',
    'ec',
    'gd',
    'gt',
    'gy',
    'hn',
    'ht',
    'jm',
    'kn',
    'ky',
    'lc',
    'mx',
    'ni',
    'pa',
    'pe',
    'pr',
    'py',
    'sr',
    'sv',
    'tt',
    'uy',
    'vc',
    've',
  ],
  AP: [
    'au',
    'bd',
    'bt',
    'cn',
    'fj',
    'hk',
    'id',
    'in',
    'jp',
    'kh',
    'kr',
    'la',
    'lk',
    'mm',
    'mn',
    'mo',
    'mv',
    'my',
    'np',
    'nz',
    'pg',
    'ph',
    'sg',
    'th',
    'tw',
    'vn',
  ],
  CEMEA: [
    'ae',
    'af',
    'am',
    'ao',
    'az',
    'bh',
    'bw',
    'by',
    'ci',
    'cm',
    'dz',
    'eg',
    'et',
    'ga',
    'ge',
    'gh',
    'il',
    'iq',
    'ir',
    'jo',
    'ke',
    'kg',
    'kw',
    'kz',
    'lb',
    'ly',
    'ma',
    'mu',
    'mw',
    'mz',
    'na',
    'ng',
    'om',
    'pk',
    'ps',
    'qa',
    'ru',
    'rw',
    'sa',
    'sn',
    'tj',
    'tm',
    'tn',
    'tz',
    'ua',
    'ug',
    'uz',
    'ye',
    'za',
    'zm',
    'zw',
  ],
  Europe: [
    'al',
    'at',
    'ba',
    'be',
    'bg',
    'ch',
    'cy',
    'cz',
    'de',
    'dk',
    'ee',
    'es',
    'fi',
    'fr',
    'gb',
    'gi',
    'gr',
    'hr',
    'hu',
    'ie',
    'is',
    'it',
    'li',
    'lt',
    'lu',
    'lv',
    'md',
    'me',
    'mk',
    'mt',
    'nl',
    'no',
    'pl',
    'pt',
    'ro',
    'rs',
    'se',
    'si',
    'sk',
    'tr',
  ],
};

/**
 * The script each language is written in (CLDR's likely script). A locale whose
 * country writes the language differently names it in SCRIPT_BY_LOCALE.
 */
const LANGUAGE_SCRIPTS: Readonly<Record<string, string>> = {
  af: 'Latn',
  am: 'Ethi',
  ar: 'Arab',
  az: 'Latn',
  be: 'Cyrl',
  bg: 'Cyrl',
  bn: 'Beng',
  bs: 'Latn',
  ca: 'Latn',
  cs: 'Latn',
  da: 'Latn',
  de: 'Latn',
  dv: 'Thaa',
  dz: 'Tibt',
  el: 'Grek',
  en: 'Latn',
  es: 'Latn',
  et: 'Latn',
  eu: 'Latn',
  fa: 'Arab',
  fi: 'Latn',
  fr: 'Latn',
  ga: 'Latn',
  gl: 'Latn',
  gu: 'Gujr',
  he: 'Hebr',
  hi: 'Deva',
  hr: 'Latn',
  ht: 'Latn',
  hu: 'Latn',
  hy: 'Armn',
  id: 'Latn',
  is: 'Latn',
  it: 'Latn',
  ja: 'Jpan',
  ka: 'Geor',
  kk: 'Cyrl',
  km: 'Khmr',
  kn: 'Knda',
  ko: 'Kore',
  ky: 'Cyrl',
  lb: 'Latn',
  lo: 'Laoo',
  lt: 'Latn',
  lv: 'Latn',
  mk: 'Cyrl',
  ml: 'Mlym',
  mn: 'Cyrl',
  mr: 'Deva',
  ms: 'Latn',
  mt: 'Latn',
  my: 'Mymr',
  nb: 'Latn',
  ne: 'Deva',
  nl: 'Latn',
  pa: 'Guru',
  pl: 'Latn',
  ps: 'Arab',
  pt: 'Latn',
  ro: 'Latn',
  ru: 'Cyrl',
  rw: 'Latn',
  si: 'Sinh',
  sk: 'Latn',
  sl: 'Latn',
  sq: 'Latn',
  sr: 'Cyrl',
  sv: 'Latn',
  sw: 'Latn',
  ta: 'Taml',
  te: 'Telu',
  tg: 'Cyrl',
  th: 'Thai',
  tk: 'Latn',
  tl: 'Latn',
  tr: 'Latn',
  uk: 'Cyrl',
  ur: 'Arab',
  uz: 'Latn',
  vi: 'Latn',
  zh: 'Hans',
  zu: 'Latn',
  // Not in the table, but right to left, so an unknown code in them still turns the page.
  iw: 'Hebr',
  sd: 'Arab',
  ug: 'Arab',
  yi: 'Hebr',
};

/** The script a language is usually written in (CLDR's likely script): `zh` is Hans, so zh_hk's Hant is a branch of its own. */
export function languageScript(language: string): string | undefined {
  return LANGUAGE_SCRIPTS[language];
}

/** Where a country writes the language in another script: traditional Chinese, Punjabi in Pakistan. */
const SCRIPT_BY_LOCALE: Readonly<Record<string, string>> = { zh_hk: 'Hant', zh_mo: 'Hant', zh_tw: 'Hant', pa_pk: 'Arab' };

/** Scripts written right to left (Unicode's RTL scripts that a language of the table uses). */
const RIGHT_TO_LEFT_SCRIPTS: ReadonlySet<string> = new Set(['Arab', 'Hebr', 'Thaa', 'Syrc', 'Nkoo', 'Adlm']);

/** The locale codes, grouped by language for reading; each country must be in REGION_COUNTRIES. */
const LOCALE_CODES: readonly string[] = [
  // English
  'en_us',
  'en_ca',
  'en_gb',
  'en_ie',
  'en_au',
  'en_nz',
  'en_in',
  'en_sg',
  'en_hk',
  'en_my',
  'en_ph',
  'en_id',
  'en_th',
  'en_vn',
  'en_bd',
  'en_lk',
  'en_kh',
  'en_pk',
  'en_fj',
  'en_pg',
  'en_za',
  'en_ng',
  'en_gh',
  'en_ke',
  'en_tz',
  'en_ug',
  'en_zm',
  'en_zw',
  'en_bw',
  'en_mu',
  'en_mw',
  'en_na',
  'en_et',
  'en_cm',
  'en_ae',
  'en_sa',
  'en_qa',
  'en_kw',
  'en_bh',
  'en_om',
  'en_jo',
  'en_lb',
  'en_eg',
  'en_il',
  'en_cy',
  'en_mt',
  'en_gi',
  'en_jm',
  'en_tt',
  'en_bs',
  'en_bb',
  'en_bz',
  'en_ky',
  'en_gy',
  'en_ag',
  'en_lc',
  'en_vc',
  'en_gd',
  'en_kn',
  'en_dm',
  'en_pr',
  // Spanish and Portuguese
  'es_us',
  'es_mx',
  'es_ar',
  'es_bo',
  'es_cl',
  'es_co',
  'es_cr',
  'es_cu',
  'es_do',
  'es_ec',
  'es_gt',
  'es_hn',
  'es_ni',
  'es_pa',
  'es_pe',
  'es_pr',
  'es_py',
  'es_sv',
  'es_uy',
  'es_ve',
  'es_es',
  'pt_br',
  'pt_pt',
  'pt_ao',
  'pt_mz',
  'pt_mo',
  // French, Dutch, German, Italian and the rest of Western Europe
  'fr_ca',
  'fr_fr',
  'fr_be',
  'fr_ch',
  'fr_lu',
  'fr_ma',
  'fr_dz',
  'fr_tn',
  'fr_lb',
  'fr_sn',
  'fr_ci',
  'fr_cm',
  'fr_ga',
  'fr_mu',
  'fr_ht',
  'ht_ht',
  'nl_nl',
  'nl_be',
  'nl_aw',
  'nl_cw',
  'nl_sr',
  'de_de',
  'de_at',
  'de_ch',
  'de_lu',
  'de_li',
  'lb_lu',
  'it_it',
  'it_ch',
  'ca_es',
  'eu_es',
  'gl_es',
  'ga_ie',
  'mt_mt',
  // Northern, Central and South-Eastern Europe
  'sv_se',
  'sv_fi',
  'da_dk',
  'nb_no',
  'fi_fi',
  'is_is',
  'et_ee',
  'lv_lv',
  'lt_lt',
  'pl_pl',
  'cs_cz',
  'sk_sk',
  'hu_hu',
  'ro_ro',
  'ro_md',
  'bg_bg',
  'hr_hr',
  'sl_si',
  'sr_rs',
  'sr_me',
  'bs_ba',
  'mk_mk',
  'sq_al',
  'el_gr',
  'el_cy',
  'tr_tr',
  // Eastern Europe, Caucasus and Central Asia
  'ru_ru',
  'ru_by',
  'ru_kz',
  'ru_ua',
  'be_by',
  'uk_ua',
  'kk_kz',
  'uz_uz',
  'ky_kg',
  'tg_tj',
  'tk_tm',
  'az_az',
  'ka_ge',
  'hy_am',
  // Middle East and Africa
  'ar_ae',
  'ar_sa',
  'ar_qa',
  'ar_kw',
  'ar_bh',
  'ar_om',
  'ar_jo',
  'ar_lb',
  'ar_eg',
  'ar_ma',
  'ar_dz',
  'ar_tn',
  'ar_iq',
  'ar_ly',
  'ar_ye',
  'ar_ps',
  'he_il',
  'fa_ir',
  'fa_af',
  'ps_af',
  'ur_pk',
  'pa_pk',
  'af_za',
  'zu_za',
  'sw_ke',
  'sw_tz',
  'am_et',
  'rw_rw',
  // Asia and the Pacific
  'zh_cn',
  'zh_hk',
  'zh_tw',
  'zh_mo',
  'zh_sg',
  'zh_my',
  'ja_jp',
  'ko_kr',
  'hi_in',
  'bn_in',
  'ta_in',
  'te_in',
  'mr_in',
  'gu_in',
  'kn_in',
  'ml_in',
  'pa_in',
  'bn_bd',
  'ne_np',
  'si_lk',
  'ta_lk',
  'dv_mv',
  'dz_bt',
  'id_id',
  'ms_my',
  'ms_sg',
  'th_th',
  'vi_vn',
  'tl_ph',
  'km_kh',
  'lo_la',
  'my_mm',
  'mn_mn',
];

const REGION_BY_COUNTRY: ReadonlyMap<string, LocaleRegion> = new Map(
  (Object.entries(REGION_COUNTRIES) as [LocaleRegion, readonly string[]][]).flatMap(([region, countries]) =>
    countries.map((country) => [country, region] as const),
  ),
);

function entryFor(code: string): LocaleEntry {
  const [language = '', country = ''] = code.split('_');
  const script = SCRIPT_BY_LOCALE[code] ?? LANGUAGE_SCRIPTS[language];
  const region = REGION_BY_COUNTRY.get(country);
  // A wrong row is a programming mistake caught by the first import (and the table's tests).
  if (script === undefined || region === undefined) throw new Error(`Locale ${code} has no ${script === undefined ? 'script' : 'region'} in the locale table.`);
  return {
    code,
    // Canonical, as Intl answers it back (tl_ph is fil-PH).
    tag: Intl.getCanonicalLocales(`${language}-${country.toUpperCase()}`)[0] ?? `${language}-${country.toUpperCase()}`,
    language,
    country,
    script,
    region,
    direction: RIGHT_TO_LEFT_SCRIPTS.has(script) ? 'rtl' : 'ltr',
  };
}

/**
 * The pseudo-locale (ADR 0013): a row like any other, so the URL keeps it (an unknown code reads as
 * en_us), but no country: it is English for a translator or a test, in the default locale's region.
 * No list shown to users may offer it.
 */
const PSEUDO_LOCALE_ENTRY: LocaleEntry = { code: PSEUDO_LOCALE, tag: 'en-XA', language: 'en', country: 'xa', script: 'Latn', region: 'NA', direction: 'ltr' };

/** Every supported locale, by code. */
export const LOCALES: ReadonlyMap<string, LocaleEntry> = new Map([
  ...LOCALE_CODES.map((code) => [code, entryFor(code)] as const),
  [PSEUDO_LOCALE, PSEUDO_LOCALE_ENTRY] as const,
]);

export function localeEntry(locale: string): LocaleEntry | undefined {
  return LOCALES.get(locale);
}

export function isSupportedLocale(locale: string): boolean {
  return LOCALES.has(locale);
}

/**
 * The fallback rule (ADR 0013): a code is matched lower-cased; a code in the table is used as it
 * is; anything else (an unknown `xx_yy`, or not `xx_yy` at all) is en_us. No guessing from the
 * language alone, so `pt_xx` is en_us, not pt_br: a guessed country would pick a wrong region
 * (analytics tag, offer categories) without anyone noticing.
 */
export function supportedLocaleOr(candidate: string, fallback: string = DEFAULT_LOCALE): string {
  const lowered = candidate.trim().toLowerCase();
  return LOCALES.has(lowered) ? lowered : fallback;
}

/** xx_yy (SPEC §2) to the BCP 47 tag a page's lang attribute and Intl want: en_us -> en-US. */
export function localeToLanguageTag(locale: string): string {
  const known = LOCALES.get(locale);
  if (known) return known.tag;
  const [language = 'en', region] = locale.split('_');
  return region ? `${language}-${region.toUpperCase()}` : language;
}

/** The page direction for a locale (SPEC §2 "Page language follows the locale"): rtl for a right-to-left script. */
export function localeDirection(locale: string): TextDirection {
  const known = LOCALES.get(locale);
  if (known) return known.direction;
  const script = LANGUAGE_SCRIPTS[locale.split('_')[0] ?? ''];
  return script !== undefined && RIGHT_TO_LEFT_SCRIPTS.has(script) ? 'rtl' : 'ltr';
}

/** The region of an xx_yy locale (SPEC §3); by its country when not in the table; NA, the default locale's, when the country is unknown too. */
export function localeRegion(locale: string): LocaleRegion {
  return LOCALES.get(locale)?.region ?? REGION_BY_COUNTRY.get(locale.slice(3, 5)) ?? 'NA';
}
