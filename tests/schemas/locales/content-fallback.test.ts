import { describe, expect, it } from 'vitest';
import { contentFallbackChain, localeLineage, mergeContentTexts } from '../../../schemas/locales/content-fallback';
import { LOCALES } from '../../../schemas/locales/locale-table';

// ADR 0013 "Content fallback by language": CLDR parent locales, then en_us (SPEC §9 default locale).
const CONTENT_FILES = ['ar_qa', 'de_de', 'en_us', 'es_co', 'fr_ca', 'pt_br', 'zh_hk'];

describe('contentFallbackChain (the content files that answer a locale, nearest first)', () => {
  it.each([
    ['es_mx', ['es_co', 'en_us']],
    ['es_ar', ['es_co', 'en_us']],
    ['es_co', ['es_co', 'en_us']],
    ['pt_pt', ['pt_br', 'en_us']],
    ['pt_br', ['pt_br', 'en_us']],
    ['zh_hk', ['zh_hk', 'en_us']],
    ['zh_tw', ['zh_hk', 'en_us']],
    ['zh_mo', ['zh_hk', 'en_us']],
    // Simplified Chinese never gets traditional characters: zh_cn's parent is zh, zh_hk's is zh_Hant.
    ['zh_cn', ['en_us']],
    ['zh_sg', ['en_us']],
    ['fr_be', ['fr_ca', 'en_us']],
    ['fr_ca', ['fr_ca', 'en_us']],
    ['ar_ae', ['ar_qa', 'en_us']],
    ['ar_qa', ['ar_qa', 'en_us']],
    ['de_at', ['de_de', 'en_us']],
    ['en_gb', ['en_us']],
    // No content in the language: English.
    ['ja_jp', ['en_us']],
    ['sv_se', ['en_us']],
    // Not in the locale table: no guessing from the language (ADR 0013), en_us.
    ['pt_xx', ['en_us']],
  ])('%s reads %j', (locale, chain) => {
    expect(contentFallbackChain(locale, CONTENT_FILES)).toEqual(chain);
  });

  it('prefers the nearest sibling: Latin American Spanish before the Spanish of Spain, and the other way round', () => {
    const files = ['en_us', 'es_es', 'es_co', 'es_mx'];
    expect(contentFallbackChain('es_ar', files)).toEqual(['es_co', 'es_mx', 'es_es', 'en_us']);
    expect(contentFallbackChain('es_mx', files)).toEqual(['es_mx', 'es_co', 'es_es', 'en_us']);
    expect(contentFallbackChain('es_es', files)).toEqual(['es_es', 'es_co', 'es_mx', 'en_us']);
    // European Portuguese of Angola reads Portugal's first, then Brazil's.
    expect(contentFallbackChain('pt_ao', ['en_us', 'pt_br', 'pt_pt'])).toEqual(['pt_pt', 'pt_br', 'en_us']);
    // International English before American English.
    expect(contentFallbackChain('en_au', ['en_us', 'en_gb'])).toEqual(['en_gb', 'en_us']);
  });

  it('does not depend on the order the files were read in', () => {
    expect(contentFallbackChain('es_ar', ['es_mx', 'en_us', 'es_es', 'es_co'])).toEqual(contentFallbackChain('es_ar', ['es_co', 'es_es', 'en_us', 'es_mx']));
  });

  it('walks CLDR parents: es_mx -> es_419 -> es, pt_ao -> pt_pt -> pt, zh_hk -> zh_hant (then the root), pa_pk by its Arabic script', () => {
    expect(localeLineage('es_mx')).toEqual(['es_mx', 'es_419', 'es']);
    expect(localeLineage('pt_ao')).toEqual(['pt_ao', 'pt_pt', 'pt']);
    expect(localeLineage('zh_hk')).toEqual(['zh_hk', 'zh_hant']);
    expect(localeLineage('zh_mo')).toEqual(['zh_mo', 'zh_hk', 'zh_hant']);
    expect(localeLineage('zh_cn')).toEqual(['zh_cn', 'zh']);
    expect(localeLineage('pa_pk')).toEqual(['pa_pk', 'pa_arab']);
    expect(localeLineage('en_gb')).toEqual(['en_gb', 'en_001', 'en']);
  });

  it('ends every chain of the locale table with en_us and never crosses languages', () => {
    for (const { code, language } of LOCALES.values()) {
      const chain = contentFallbackChain(code, CONTENT_FILES);
      expect(chain.at(-1), code).toBe('en_us');
      for (const file of chain.slice(0, -1)) expect(file.split('_')[0], `${code} -> ${file}`).toBe(language);
    }
  });
});

describe('mergeContentTexts (one group over the chain)', () => {
  it('takes each key from the nearest file that has it', () => {
    expect(mergeContentTexts([{ a: 'es a' }, { a: 'en a', b: 'en b' }])).toEqual({ a: 'es a', b: 'en b' });
  });

  it('takes a counted text whole from the nearest file that writes it: no English form mixes into a translation', () => {
    const merged = mergeContentTexts([
      { 'left.other': '{{count}} 次' },
      { 'left.one': '{{count}} attempt', 'left.other': '{{count}} attempts', 'done.one': '1 done', 'done.other': 'done' },
    ]);
    expect(merged).toEqual({ 'left.other': '{{count}} 次', 'done.one': '1 done', 'done.other': 'done' });
  });

  it('skips a file without the group', () => {
    expect(mergeContentTexts([undefined, { a: 'en' }])).toEqual({ a: 'en' });
  });
});
