import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { GatewayError } from '../../../src/api/gateway-api';
import { endsTheSession, freshProofDemandOf, freshProofRefusal, offeredChannels, waitSecondsOf } from '../../../src/auth/fresh-proof';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function refusal(status: number, code: string, details?: Record<string, unknown>, retryAfterSeconds?: number): GatewayError {
  return {
    status,
    code,
    message: 'x',
    correlationId: null,
    ...(details ? { details } : {}),
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
  };
}

describe('freshProofDemandOf: 403 FRESH_PROOF_REQUIRED { proof, channels }', () => {
  it('reads an authenticator demand, and a passcode demand with its channels in the gateway order', () => {
    expect(freshProofDemandOf(refusal(403, 'FRESH_PROOF_REQUIRED', { proof: 'totp' }))).toEqual({ proof: 'totp', channels: [] });
    expect(freshProofDemandOf(refusal(403, 'FRESH_PROOF_REQUIRED', { proof: 'passcode', channels: ['sms', 'email'] }))).toEqual({
      proof: 'passcode',
      channels: ['sms', 'email'],
    });
  });

  it('a passcode demand naming no channel it knows asks for the e-mail', () => {
    expect(freshProofDemandOf(refusal(403, 'FRESH_PROOF_REQUIRED', { proof: 'passcode', channels: ['pigeon'] }))?.channels).toEqual(['email']);
    expect(freshProofDemandOf(refusal(403, 'FRESH_PROOF_REQUIRED', { proof: 'passcode' }))?.channels).toEqual(['email']);
  });

  it('is null for any other refusal, a 403 of another code included', () => {
    expect(freshProofDemandOf(refusal(403, 'PASSWORD_INCORRECT'))).toBeNull();
    expect(freshProofDemandOf(refusal(401, 'FRESH_PROOF_REQUIRED', { proof: 'totp' }))).toBeNull();
    expect(freshProofDemandOf(undefined)).toBeNull();
  });
});

describe('offeredChannels', () => {
  const demand = { proof: 'passcode' as const, channels: ['email', 'sms'] as const };

  it('offers the allowed channels the person has a destination for, masked', () => {
    expect(offeredChannels(demand, { email: 'e***@example.com', phone: '*** 0143' })).toEqual([
      { channel: 'email', maskedDestination: 'e***@example.com' },
      { channel: 'sms', maskedDestination: '*** 0143' },
    ]);
    expect(offeredChannels(demand, { email: 'e***@example.com', phone: null })).toEqual([{ channel: 'email', maskedDestination: 'e***@example.com' }]);
  });

  it('without the details, or none matching, the allowed channels unmasked (the gateway knows where)', () => {
    expect(offeredChannels(demand, undefined)).toEqual([
      { channel: 'email', maskedDestination: null },
      { channel: 'sms', maskedDestination: null },
    ]);
    expect(offeredChannels({ proof: 'passcode', channels: ['sms'] }, { email: 'e***@example.com', phone: null })).toEqual([
      { channel: 'sms', maskedDestination: null },
    ]);
  });
});

describe('what the dialog says, and when the session ended', () => {
  it('a wrong code with the attempts left, an expired one, a wait, a mail server down', () => {
    expect(freshProofRefusal(refusal(401, 'OTP_INVALID', { attemptsLeft: 3 }))).toEqual({ group: 'signIn', key: 'error.otpInvalid', values: { count: 3 } });
    expect(freshProofRefusal(refusal(401, 'OTP_INVALID', { attemptsLeft: 0 }))).toEqual({ group: 'signIn', key: 'error.otpAttemptsUsed' });
    expect(freshProofRefusal(refusal(401, 'OTP_EXPIRED', { attemptsLeft: 3 }))).toEqual({ group: 'signIn', key: 'error.otpExpired' });
    expect(freshProofRefusal(refusal(429, 'RATE_LIMITED', {}, 30))).toEqual({ group: 'signIn', key: 'error.rateLimitedWait' });
    expect(freshProofRefusal(refusal(503, 'DELIVERY_UNAVAILABLE', {}, 60))).toEqual({ group: 'signIn', key: 'freshProof.deliveryUnavailable' });
    expect(freshProofRefusal(refusal(503, 'SERVICE_UNAVAILABLE', {}, 5))).toEqual({ group: 'signIn', key: 'freshProof.unavailable' });
  });

  it('the seconds to wait come from Retry-After on a 429 or 503 only', () => {
    expect(waitSecondsOf(refusal(429, 'RATE_LIMITED', {}, 30))).toBe(30);
    expect(waitSecondsOf(refusal(503, 'SERVICE_UNAVAILABLE', {}, 5))).toBe(5);
    expect(waitSecondsOf(refusal(503, 'SERVICE_UNAVAILABLE'))).toBeNull();
    expect(waitSecondsOf(refusal(401, 'OTP_INVALID', {}, 30))).toBeNull();
  });

  it('a 401 about the code keeps the session; any other 401 ends it', () => {
    expect(endsTheSession(refusal(401, 'OTP_INVALID'))).toBe(false);
    expect(endsTheSession(refusal(401, 'OTP_EXPIRED'))).toBe(false);
    expect(endsTheSession(refusal(401, 'UNAUTHENTICATED'))).toBe(true);
    expect(endsTheSession(refusal(429, 'RATE_LIMITED'))).toBe(false);
  });
});

// sites:check only checks counted forms (ADR 0013); the dialog's texts are checked here in every content file.
describe('the dialog texts in every locale', () => {
  const KEYS = ['title', 'intro', 'codeLabel', 'codeFormat', 'submit', 'otherChannel', 'cancelled', 'unavailable', 'deliveryUnavailable'].map(
    (key) => `freshProof.${key}`,
  );
  const files = readdirSync(`${REPO_ROOT}fixtures/content`).filter((name) => name.endsWith('.json'));
  const english = (JSON.parse(readFileSync(`${REPO_ROOT}fixtures/content/en_us.json`, 'utf8')) as { signIn: Record<string, string> }).signIn;

  it.each(files)('%s has each key, in its own words', (file) => {
    const signIn = (JSON.parse(readFileSync(`${REPO_ROOT}fixtures/content/${file}`, 'utf8')) as { signIn: Record<string, string> }).signIn;
    for (const key of KEYS) {
      expect(signIn[key], key).toMatch(/\S/);
      if (file !== 'en_us.json') expect(signIn[key], key).not.toBe(english[key]);
    }
    expect(
      Object.keys(signIn)
        .filter((key) => key.startsWith('freshProof.'))
        .sort(),
    ).toEqual([...KEYS].sort());
  });
});
