import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import arQa from '../../../fixtures/content/ar_qa.json';
import enUs from '../../../fixtures/content/en_us.json';
import { textOf } from '../../../src/content/texts';
import { REPO_ROOT } from '../../e2e/support/paths';

// ADR 0013 "Counted texts": the screens' lookup (useText, the refusal texts) shows the form of the count.
describe('textOf', () => {
  it('says "1 attempt" and "2 attempts" in English, and the Arabic form with the page\'s Latin digits', () => {
    expect(textOf(enUs.signIn, 'error.otpInvalid', '', { count: 1 }, 'en-US')).toBe("That passcode isn't correct. You have 1 attempt left.");
    expect(textOf(enUs.signIn, 'error.otpInvalid', '', { count: 2 }, 'en-US')).toBe("That passcode isn't correct. You have 2 attempts left.");
    expect(textOf(arQa.signIn, 'error.otpInvalid', '', { count: 2 }, 'ar-QA')).toBe('رمز التحقق غير صحيح. تبقّت لديك محاولتان.');
    expect(textOf(arQa.signIn, 'error.otpInvalid', '', { count: 4 }, 'ar-QA')).toBe('رمز التحقق غير صحيح. تبقّت لديك 4 محاولات.');
    expect(textOf(arQa.signIn, 'error.userLocked', '', { count: 15 }, 'ar-QA')).toContain('بعد 15 دقيقةً');
  });

  it('answers the fallback template, filled, when the texts have neither the key nor its forms', () => {
    expect(textOf({}, 'error.otpInvalid', 'You have {{count}} attempts left.', { count: 1234 }, 'en-US')).toBe('You have 1,234 attempts left.');
    expect(textOf(undefined, 'title', 'Sign in')).toBe('Sign in');
  });
});

// The texts that state a rule or a reason (SPEC §5 limits, ADR 0008 spent codes, a session ended elsewhere) in every content file, in its own words.
describe('rule and reason texts in every locale', () => {
  const files = readdirSync(`${REPO_ROOT}/fixtures/content`).filter((name) => name.endsWith('.json'));
  const read = (file: string) => JSON.parse(readFileSync(`${REPO_ROOT}/fixtures/content/${file}`, 'utf8')) as Record<string, Record<string, string>>;
  const english = read('en_us.json');
  const KEYS: readonly [group: string, key: string][] = [
    ['form', 'tooLong.other'],
    ['cards', 'limitReached'],
    ['signIn', 'error.otpSpent'],
    ['signIn', 'login.sessionEndedPasswordChanged'],
  ];

  it.each(files)('%s has each, in its own words, the limits with their number', (file) => {
    const content = read(file);
    for (const [group, key] of KEYS) {
      expect(content[group]?.[key], `${group}.${key}`).toMatch(/\S/);
      if (file !== 'en_us.json') expect(content[group]?.[key], `${group}.${key}`).not.toBe(english[group]?.[key]);
    }
    expect(content.form?.['tooLong.other']).toContain('{{count}}');
    expect(content.cards?.limitReached).toContain('{{count}}');
  });
});

// One word per thing, in every language: wherever the English says "two-step verification", each locale says it with
// the same term (the walk found de_de switching between three words for it, zh_hk between three).
describe('"two-step verification" is one term in each locale', () => {
  const TERMS: Readonly<Record<string, string>> = {
    // Without its article: with a preposition Arabic writes it للتحقق بخطوتين.
    'ar_qa.json': 'تحقق بخطوتين',
    'de_de.json': 'Zwei-Schritt-Verifizierung',
    'en_us.json': 'two-step verification',
    'es_co.json': 'verificación en dos pasos',
    'fr_ca.json': 'vérification en deux étapes',
    'pt_br.json': 'verificação em duas etapas',
    'zh_hk.json': '兩步驗證',
  };
  const read = (file: string) => JSON.parse(readFileSync(`${REPO_ROOT}/fixtures/content/${file}`, 'utf8')) as Record<string, Record<string, string>>;
  const english = read('en_us.json');
  const keys = Object.entries(english).flatMap(([group, texts]) =>
    Object.entries(texts)
      .filter(([, text]) => text.toLowerCase().includes('two-step verification'))
      .map(([key]) => [group, key] as const),
  );

  it('the English names it in the menu, the page, the mails and the sign-in steps', () => {
    expect(keys.length).toBeGreaterThanOrEqual(15);
  });

  it.each(readdirSync(`${REPO_ROOT}/fixtures/content`).filter((name) => name.endsWith('.json')))('%s', (file) => {
    const term = TERMS[file];
    expect(term, `${file} has a term for two-step verification`).toBeDefined();
    const texts = read(file);
    const elsewhere = keys.filter(([group, key]) => !(texts[group]?.[key] ?? '').toLowerCase().includes(term!.toLowerCase()));
    expect(elsewhere.map(([group, key]) => `${group}.${key}: ${texts[group]?.[key] ?? '(missing)'}`)).toEqual([]);
  });
});
