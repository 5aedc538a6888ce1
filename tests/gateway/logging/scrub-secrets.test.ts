import { describe, expect, it } from 'vitest';
import { containsCardNumber, scrubCardNumbers, scrubJsonLine, withoutQuery } from '../../../gateway/logging/scrub-secrets';

describe('scrubCardNumbers', () => {
  it.each([
    ['4111111111111111', '[REDACTED]'],
    ['card 4111 1111 1111 1111 added', 'card [REDACTED] added'],
    ['4111-1111-1111-1111', '[REDACTED]'],
    ['amex 3782 822463 10005', 'amex [REDACTED]'],
    ['twelve 123456789012', 'twelve [REDACTED]'],
    ['nineteen 4111111111111111234', 'nineteen [REDACTED]'],
    ['two 4111111111111111 and 5500 0000 0000 0004', 'two [REDACTED] and [REDACTED]'],
    ['mastercard 5555-5555-5555-4444.', 'mastercard [REDACTED].'],
    ['visa 4012 8888 8888 1881 next to id 9c08332d-0d51-4c03-8754-766716935517', 'visa [REDACTED] next to id 9c08332d-0d51-4c03-8754-766716935517'],
    // Not a UUID: its first group is longer than 8, so the card rule applies.
    ['id 4111111111111111-0d51-4c03-8754-a76228922969', 'id [REDACTED]d51-4c03-8754-a76228922969'],
  ])('redacts %j', (text, expected) => {
    expect(scrubCardNumbers(text)).toBe(expected);
    expect(containsCardNumber(text)).toBe(true);
  });

  it.each([
    'last four 1111',
    'bin 411111111',
    'phone 2025550143',
    'eleven 12345678901',
    '2026-11-21T02:33:37.463Z',
    'id 9c08332d-0d51-4c03-8754-a76228922969',
    // UUIDs whose digits run 12+ long across the dashes are ids, not card numbers.
    'job 9c08332d-0d51-4c03-8754-766716935517 taken',
    '{"job":"9c08332d-0d51-4c03-8754-766716935517"}',
    'session 0c9a1f2e-3d4b-4c5d-8123-45678901ab2c',
    'all digits 12345678-1234-4234-8234-123456789012',
    'upper 9C08332D-0D51-4C03-8754-766716935517',
  ])('leaves %j alone', (text) => {
    expect(scrubCardNumbers(text)).toBe(text);
    expect(containsCardNumber(text)).toBe(false);
  });
});

describe('scrubJsonLine', () => {
  it('scrubs strings and leaves numbers (timestamps, durations) valid', () => {
    const line = JSON.stringify({
      level: 30,
      time: 1732150000000,
      responseTime: 1.2345678901234567,
      msg: 'pan 4111 1111 1111 1111',
      nested: { url: '/x/4111111111111111' },
    });
    const scrubbed = scrubJsonLine(line);
    expect(JSON.parse(scrubbed)).toEqual({
      level: 30,
      time: 1732150000000,
      responseTime: 1.2345678901234567,
      msg: 'pan [REDACTED]',
      nested: { url: '/x/[REDACTED]' },
    });
  });

  it('handles escaped quotes inside strings', () => {
    const line = JSON.stringify({ msg: 'said "4111111111111111" twice' });
    expect(JSON.parse(scrubJsonLine(line))).toEqual({ msg: 'said "[REDACTED]" twice' });
  });
});

describe('withoutQuery', () => {
  it.each([
    ['/api/user-auth/tokens/revoke?refresh_token=abc.def', '/api/user-auth/tokens/revoke'],
    ['/x?siteId=firstbank&email=ana%40example.com', '/x'],
    ['/x?', '/x'],
    ['/x', '/x'],
  ])('%s -> %s', (url, expected) => {
    expect(withoutQuery(url)).toBe(expected);
  });
});
