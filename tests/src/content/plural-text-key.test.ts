import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pluralTextKey } from '../../../src/content/plural-text-key';

/** Counted texts by Intl.PluralRules: "1 attempt", "2 attempts", and Arabic's own forms for 1 and 2. */
describe('pluralTextKey', () => {
  it.each([
    ['en_us', 1, 'one'],
    ['en_us', 2, 'other'],
    ['fr_ca', 1, 'one'],
    ['fr_ca', 2, 'other'],
    ['ar_qa', 1, 'one'],
    ['ar_qa', 2, 'two'],
    ['ar_qa', 3, 'few'],
    ['ar_qa', 11, 'many'],
    ['zh_hk', 1, 'other'],
  ] as const)('%s %d → .%s', (locale, count, category) => {
    expect(pluralTextKey('error.wrongCombinationAttemptsLeft', count, locale)).toBe(`error.wrongCombinationAttemptsLeft.${category}`);
  });

  const CONTENT_DIR = new URL('../../../fixtures/content/', import.meta.url);
  const files = readdirSync(CONTENT_DIR).filter((name) => name.endsWith('.json'));
  it.each(files)('%s writes the sign-in warning for 1 and 2 attempts left in its own plural forms', (file) => {
    const texts = (JSON.parse(readFileSync(new URL(file, CONTENT_DIR), 'utf8')) as { signIn: Record<string, string> }).signIn;
    const locale = file.replace(/\.json$/, '');
    for (const count of [1, 2]) {
      const text = texts[pluralTextKey('error.wrongCombinationAttemptsLeft', count, locale)] ?? texts['error.wrongCombinationAttemptsLeft.other'];
      expect(text, `${locale} ${count}`).toMatch(/\S/);
    }
    if (locale === 'en_us') expect(texts[pluralTextKey('error.wrongCombinationAttemptsLeft', 1, locale)]).toContain('{{count}} attempt left');
  });
});
