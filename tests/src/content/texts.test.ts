import { describe, expect, it } from 'vitest';
import arQa from '../../../fixtures/content/ar_qa.json';
import enUs from '../../../fixtures/content/en_us.json';
import { textOf } from '../../../src/content/texts';

// ADR 0013 "Counted texts": the screens' lookup (useText, the refusal texts) shows the form of the count.
describe('textOf', () => {
  it('says "1 attempt" and "2 attempts" in English, and the Arabic form with Arabic digits', () => {
    expect(textOf(enUs.signIn, 'error.otpInvalid', '', { count: 1 }, 'en-US')).toBe("That passcode isn't correct. You have 1 attempt left.");
    expect(textOf(enUs.signIn, 'error.otpInvalid', '', { count: 2 }, 'en-US')).toBe("That passcode isn't correct. You have 2 attempts left.");
    expect(textOf(arQa.signIn, 'error.otpInvalid', '', { count: 2 }, 'ar-QA')).toBe('رمز التحقق غير صحيح. تبقّت لديك محاولتان.');
    expect(textOf(arQa.signIn, 'error.otpInvalid', '', { count: 4 }, 'ar-QA')).toBe('رمز التحقق غير صحيح. تبقّت لديك ٤ محاولات.');
    expect(textOf(arQa.signIn, 'error.userLocked', '', { count: 15 }, 'ar-QA')).toContain('بعد ١٥ دقيقةً');
  });

  it('answers the fallback template, filled, when the texts have neither the key nor its forms', () => {
    expect(textOf({}, 'error.otpInvalid', 'You have {{count}} attempts left.', { count: 1234 }, 'en-US')).toBe('You have 1,234 attempts left.');
    expect(textOf(undefined, 'title', 'Sign in')).toBe('Sign in');
  });
});
