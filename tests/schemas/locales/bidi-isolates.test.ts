import { describe, expect, it } from 'vitest';
import { valueDirection } from '../../../schemas/locales/bidi-isolates';

describe('valueDirection: how a value inside a sentence is isolated', () => {
  it('a masked number, a masked card, a code and a date in digits are left to right', () => {
    expect(valueDirection('*** *** 3456')).toBe('ltr');
    expect(valueDirection('•••• 3707')).toBe('ltr');
    expect(valueDirection('XXXX XXXX XXXX 3707')).toBe('auto');
    expect(valueDirection('482913')).toBe('ltr');
    expect(valueDirection('28/11/2026')).toBe('ltr');
  });

  it('a value with letters takes the direction of its first letter: an e-mail, an Arabic name', () => {
    expect(valueDirection('m***@example.com')).toBe('auto');
    expect(valueDirection('مريم الكواري')).toBe('auto');
  });
});
