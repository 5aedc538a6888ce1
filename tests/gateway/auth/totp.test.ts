import { describe, expect, it } from 'vitest';
import { matchTotpStep, newTotpSecret, totpCode, totpStepAt } from '../../../gateway/auth/totp';

/** RFC 6238 appendix B (SHA-1 seed "12345678901234567890"), read as 6 digits (ADR 0008: 30 s steps, 6 digits). */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const RFC_VECTORS: [number, string][] = [
  [59, '287082'],
  [1111111109, '081804'],
  [1111111111, '050471'],
  [1234567890, '005924'],
  [2000000000, '279037'],
  [20000000000, '353130'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(RFC_VECTORS)('at %i s gives %s', (seconds, code) => {
    expect(totpCode(RFC_SECRET, totpStepAt(new Date(seconds * 1000)))).toBe(code);
  });

  it('accepts the current step and one either side, never a step at or before the last used one', () => {
    const now = new Date(1_111_111_111_000);
    const step = totpStepAt(now);
    expect(matchTotpStep(RFC_SECRET, totpCode(RFC_SECRET, step), now, null)).toBe(step);
    expect(matchTotpStep(RFC_SECRET, totpCode(RFC_SECRET, step - 1), now, null)).toBe(step - 1);
    expect(matchTotpStep(RFC_SECRET, totpCode(RFC_SECRET, step + 1), now, null)).toBe(step + 1);
    expect(matchTotpStep(RFC_SECRET, totpCode(RFC_SECRET, step - 2), now, null)).toBeNull();
    expect(matchTotpStep(RFC_SECRET, totpCode(RFC_SECRET, step), now, step)).toBeNull();
    expect(matchTotpStep(RFC_SECRET, totpCode(RFC_SECRET, step + 1), now, step)).toBe(step + 1);
    expect(matchTotpStep(RFC_SECRET, 'abcdef', now, null)).toBeNull();
  });

  it('makes 160-bit base32 secrets that differ every time', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
  });
});
