import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LOCALE,
  isSupportedLocale,
  LOCALES,
  localeDirection,
  localeEntry,
  localeRegion,
  localeToLanguageTag,
  supportedLocaleOr,
} from '../../../schemas/locales/locale-table';

describe('the locale table (SPEC §9 over 150 locale codes)', () => {
  it('has more than 150 xx_yy codes, each once', () => {
    expect(LOCALES.size).toBeGreaterThan(150);
    for (const code of LOCALES.keys()) expect(code).toMatch(/^[a-z]{2}_[a-z]{2}$/);
  });

  it('holds the real language and country pairs the sites use', () => {
    for (const code of [
      'en_us',
      'en_gb',
      'fr_ca',
      'fr_fr',
      'pt_br',
      'pt_pt',
      'es_co',
      'es_mx',
      'ar_qa',
      'ar_ae',
      'zh_hk',
      'zh_tw',
      'zh_cn',
      'ja_jp',
      'ko_kr',
      'he_il',
      'fa_ir',
      'ur_pk',
      'de_de',
    ]) {
      expect(isSupportedLocale(code), code).toBe(true);
    }
  });

  it('gives every code a BCP 47 tag that Intl accepts and keeps as it is', () => {
    for (const entry of LOCALES.values()) {
      expect(entry.tag.endsWith(`-${entry.country.toUpperCase()}`)).toBe(true);
      expect(Intl.getCanonicalLocales(entry.tag)).toEqual([entry.tag]);
    }
  });

  it('covers all five regions of SPEC §3', () => {
    const regions = new Set([...LOCALES.values()].map((entry) => entry.region));
    expect([...regions].sort()).toEqual(['AP', 'CEMEA', 'Europe', 'LAC', 'NA']);
  });

  it.each([
    ['en_us', 'NA'],
    ['fr_ca', 'NA'],
    ['pt_br', 'LAC'],
    ['es_co', 'LAC'],
    ['es_mx', 'LAC'],
    ['zh_hk', 'AP'],
    ['ja_jp', 'AP'],
    ['ar_qa', 'CEMEA'],
    ['ur_pk', 'CEMEA'],
    ['de_de', 'Europe'],
    ['pt_pt', 'Europe'],
    ['tr_tr', 'Europe'],
  ])('%s is in region %s', (locale, region) => {
    expect(localeRegion(locale)).toBe(region);
    expect(localeEntry(locale)?.region).toBe(region);
  });

  it('reads the region of a code outside the table from its country, else NA', () => {
    expect(localeRegion('xx_br')).toBe('LAC');
    expect(localeRegion('xx_zz')).toBe('NA');
  });
});

// SPEC §2: page language follows the locale; the direction comes from the language's script.
describe('tags and direction', () => {
  it.each([
    ['en_us', 'en-US', 'ltr'],
    ['pt_br', 'pt-BR', 'ltr'],
    ['ar_qa', 'ar-QA', 'rtl'],
    ['ar_ma', 'ar-MA', 'rtl'],
    ['he_il', 'he-IL', 'rtl'],
    ['fa_ir', 'fa-IR', 'rtl'],
    ['ur_pk', 'ur-PK', 'rtl'],
    ['ps_af', 'ps-AF', 'rtl'],
    ['dv_mv', 'dv-MV', 'rtl'],
    ['pa_pk', 'pa-PK', 'rtl'],
    ['pa_in', 'pa-IN', 'ltr'],
    ['zh_hk', 'zh-HK', 'ltr'],
    ['fr_ma', 'fr-MA', 'ltr'],
    ['tl_ph', 'fil-PH', 'ltr'],
  ])('%s -> %s, %s', (locale, tag, direction) => {
    expect(localeToLanguageTag(locale)).toBe(tag);
    expect(localeDirection(locale)).toBe(direction);
  });

  it('writes Chinese of Hong Kong, Macao and Taiwan in traditional characters', () => {
    expect(localeEntry('zh_hk')?.script).toBe('Hant');
    expect(localeEntry('zh_tw')?.script).toBe('Hant');
    expect(localeEntry('zh_cn')?.script).toBe('Hans');
  });

  it('turns every Arabic, Hebrew and Persian locale right to left and nothing else', () => {
    const rtl = [...LOCALES.values()].filter((entry) => entry.direction === 'rtl').map((entry) => entry.language);
    expect(new Set(rtl)).toEqual(new Set(['ar', 'he', 'fa', 'ps', 'ur', 'pa', 'dv']));
  });

  it('still turns an unknown code of a right-to-left language', () => {
    expect(localeDirection('yi_us')).toBe('rtl');
    expect(localeDirection('xx_yy')).toBe('ltr');
  });
});

// ADR 0013 fallback rule.
describe('supportedLocaleOr', () => {
  it.each([
    ['pt_br', 'pt_br'],
    ['PT_BR', 'pt_br'],
    [' ar_qa ', 'ar_qa'],
    ['pt_xx', DEFAULT_LOCALE],
    ['xx_yy', DEFAULT_LOCALE],
    ['en-us', DEFAULT_LOCALE],
    ['english', DEFAULT_LOCALE],
    ['', DEFAULT_LOCALE],
  ])('%j -> %s', (candidate, locale) => {
    expect(supportedLocaleOr(candidate)).toBe(locale);
  });

  it('answers the fallback the caller names', () => {
    expect(supportedLocaleOr('xx_yy', 'fr_ca')).toBe('fr_ca');
  });
});
