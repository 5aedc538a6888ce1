import { describe, expect, it } from 'vitest';
import arQa from '../../../fixtures/content/ar_qa.json';
import { countedTextMistakes, formatNumberValues, pluralFormOf, selectCountedText } from '../../../schemas/locales/counted-text';

// ADR 0013 "Counted texts": forms by Intl.PluralRules of the page language, `other` required.
const find = (texts: Record<string, string>) => (key: string) => texts[key];
const arabic = find(arQa.signIn);

describe('selectCountedText', () => {
  it('picks each of the six Arabic forms by the count', () => {
    const forms = [0, 1, 2, 3, 11, 100].map((count) => selectCountedText(arabic, 'error.otpInvalid', { count }, 'ar-QA'));
    expect(forms).toEqual([
      arQa.signIn['error.otpInvalid.zero'],
      arQa.signIn['error.otpInvalid.one'],
      arQa.signIn['error.otpInvalid.two'],
      arQa.signIn['error.otpInvalid.few'],
      arQa.signIn['error.otpInvalid.many'],
      arQa.signIn['error.otpInvalid.other'],
    ]);
    expect(new Set(forms).size).toBe(6);
  });

  it('picks one and other in English, and falls back to other for a form the text lacks', () => {
    const texts = { 'left.one': '{{count}} attempt left', 'left.other': '{{count}} attempts left' };
    expect(selectCountedText(find(texts), 'left', { count: 1 }, 'en-US')).toBe('{{count}} attempt left');
    expect(selectCountedText(find(texts), 'left', { count: 0 }, 'en-US')).toBe('{{count}} attempts left');
    expect(selectCountedText(find(texts), 'left', { count: 2 }, 'en-US')).toBe('{{count}} attempts left');
    // French "one" is 0 and 1; Arabic "two" missing here falls to other.
    expect(selectCountedText(find(texts), 'left', { count: 0 }, 'fr-CA')).toBe('{{count}} attempt left');
    expect(selectCountedText(find(texts), 'left', { count: 2 }, 'ar-QA')).toBe('{{count}} attempts left');
  });

  it('answers a plain text by its key, other without a numeric count, undefined when there is neither', () => {
    expect(selectCountedText(find({ hello: 'Hi' }), 'hello', { count: 2 }, 'en-US')).toBe('Hi');
    expect(selectCountedText(find({ 'left.other': 'many' }), 'left', { count: '2' }, 'en-US')).toBe('many');
    expect(selectCountedText(find({}), 'left', { count: 1 }, 'en-US')).toBeUndefined();
  });
});

describe('formatNumberValues', () => {
  it('writes numbers as the page language does, in the Latin digits of the page, and leaves texts alone', () => {
    expect(formatNumberValues({ count: 3, met: 1234, name: '55' }, 'ar-QA')).toEqual({ count: '3', met: '1,234', name: '55' });
    expect(formatNumberValues({ count: 1234 }, 'de-DE')).toEqual({ count: '1.234' });
    expect(formatNumberValues({ count: 1234 }, 'en-US')).toEqual({ count: '1,234' });
  });
});

describe('countedTextMistakes (the content check)', () => {
  it('refuses a counted text without its other form', () => {
    expect(countedTextMistakes({ 'left.one': 'one left' }, 'en-US')).toEqual([
      { key: 'left.other', expected: 'the "other" form every counted text needs', actual: 'only .one' },
    ]);
  });

  it('refuses a form the language never selects', () => {
    expect(countedTextMistakes({ 'left.few': 'a few', 'left.other': 'many' }, 'de-DE')).toEqual([
      { key: 'left.few', expected: 'a plural form of de-DE: one, other', actual: '.few' },
    ]);
  });

  it('passes every content group of the Arabic file, and plain texts', () => {
    for (const texts of Object.values(arQa)) expect(countedTextMistakes(texts, 'ar-QA')).toEqual([]);
    expect(pluralFormOf('label.first_name')).toBeUndefined();
    expect(pluralFormOf('error.otpInvalid.few')).toEqual({ base: 'error.otpInvalid', form: 'few' });
  });
});
