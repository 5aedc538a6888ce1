import { describe, expect, it } from 'vitest';
import { isSupportedLocale, localeDirection, localeRegion, localeToLanguageTag } from '../../../schemas/locales/locale-table';
import { isPseudoLocalised, PSEUDO_CLOSE, PSEUDO_LOCALE, PSEUDO_OPEN, pseudoLocalise, pseudoLocaliseTexts } from '../../../schemas/locales/pseudo-locale';

/** The text between the markers. */
const inner = (text: string) => text.slice(PSEUDO_OPEN.length, text.length - PSEUDO_CLOSE.length);

describe('the pseudo-locale transform (ADR 0013)', () => {
  it('accents every Latin letter and wraps the text in the marker', () => {
    const pseudo = pseudoLocalise('Sign in');
    expect(pseudo.startsWith(`${PSEUDO_OPEN}Šîĝñ îñ`)).toBe(true);
    expect(pseudo.endsWith(PSEUDO_CLOSE)).toBe(true);
    expect(inner(pseudo)).not.toMatch(/[A-Za-z]/);
    expect(pseudoLocalise('The QUICK brown fox jumps over the lazy dog')).not.toMatch(/[A-Za-z]/);
  });

  it.each(['Sign in', 'OK', 'X', 'Your password doesn’t meet the requirements below.'])('makes "%s" at least 40 %% longer', (text) => {
    expect(inner(pseudoLocalise(text)).length).toBeGreaterThanOrEqual(Math.ceil(text.length * 1.4));
  });

  it('keeps placeholders in both forms as written, so they still fill', () => {
    const pseudo = pseudoLocalise('Try again in {{minutes}} minutes, {product} or {{ id }}.');
    expect(pseudo).toContain('{{minutes}}');
    expect(pseudo).toContain('{product}');
    expect(pseudo).toContain('{{ id }}');
    expect(pseudo).toContain('ɱîñûţéš');
  });

  it('keeps markup tags, their attributes and entities untouched, and accents the text between them', () => {
    const pseudo = pseudoLocalise('Read the <a href="https://example.com/privacy" target="_blank">privacy notice</a> &amp; terms<br/>');
    expect(pseudo).toContain('<a href="https://example.com/privacy" target="_blank">');
    expect(pseudo).toContain('</a>');
    expect(pseudo).toContain('<br/>');
    expect(pseudo).toContain('&amp;');
    expect(pseudo).toContain('þŕîṽåçý ñöţîçé');
  });

  it('leaves an already pseudo-localised text alone, so a second pass changes nothing', () => {
    const once = pseudoLocalise('Save changes');
    expect(isPseudoLocalised(once)).toBe(true);
    expect(pseudoLocalise(once)).toBe(once);
    expect(isPseudoLocalised('Save changes')).toBe(false);
  });

  it('leaves an empty text empty: there is nothing to show', () => {
    expect(pseudoLocalise('')).toBe('');
    expect(pseudoLocalise('  ')).toBe('  ');
  });

  it('transforms every text of a group, key by key', () => {
    expect(pseudoLocaliseTexts({ a: 'Back', b: 'Close' })).toEqual({ a: pseudoLocalise('Back'), b: pseudoLocalise('Close') });
  });
});

describe('the pseudo-locale in the locale table', () => {
  it('is a row of the table, so the URL keeps it instead of reading en_us', () => {
    expect(PSEUDO_LOCALE).toMatch(/^[a-z]{2}_[a-z]{2}$/);
    expect(isSupportedLocale(PSEUDO_LOCALE)).toBe(true);
  });

  it('is English, left to right, in the default locale region, with a tag Intl accepts', () => {
    expect(localeToLanguageTag(PSEUDO_LOCALE)).toBe('en-XA');
    expect(Intl.getCanonicalLocales('en-XA')).toEqual(['en-XA']);
    expect(localeDirection(PSEUDO_LOCALE)).toBe('ltr');
    expect(localeRegion(PSEUDO_LOCALE)).toBe('NA');
  });
});
