import { describe, expect, it } from 'vitest';
import { localeDirection, localeToLanguageTag } from '../../../src/site/locale-tag';

// SPEC §2: page language follows the locale; a right-to-left language turns the whole page.
describe('locale tags and direction', () => {
  it.each([
    ['en_us', 'en-US', 'ltr'],
    ['pt_br', 'pt-BR', 'ltr'],
    ['ar_qa', 'ar-QA', 'rtl'],
    ['he_il', 'he-IL', 'rtl'],
    ['fa_ir', 'fa-IR', 'rtl'],
    ['zh_hk', 'zh-HK', 'ltr'],
  ])('%s -> %s, %s', (locale, tag, direction) => {
    expect(localeToLanguageTag(locale)).toBe(tag);
    expect(localeDirection(locale)).toBe(direction);
  });
});
