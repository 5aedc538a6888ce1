import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readSignedValue, signValue } from '../../../gateway/auth/signed-values';
import { environmentKey, KeyRing } from '../../../gateway/security/key-ring';
import { createSecretBox } from '../../../gateway/security/secret-box';

/** ADR 0008: TOTP secrets sealed at rest; LOGIN_CHALLENGE and TRUSTED_DEVICE values tamper-proof. */
describe('createSecretBox (AES-256-GCM)', () => {
  const box = createSecretBox(randomBytes(32));

  it('seals to a different text each time and opens back to the secret', () => {
    const sealed = box.seal('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('GEZDGNBV');
    expect(box.seal('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
  });

  it('refuses a tampered value and another key', () => {
    const sealed = box.seal('secret');
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3]!, 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => box.open([...parts.slice(0, 3), flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => createSecretBox(randomBytes(32)).open(sealed)).toThrow();
    expect(() => createSecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });

  // A GCM tag cut to 4 bytes is forged in about 2^32 tries; Node 20 accepts short tags unless told the length.
  it.each([0, 4, 8, 12, 15, 17])('refuses a value whose tag is %i bytes instead of 16', (length) => {
    const [version, iv, tag, ciphertext] = box.seal('GEZDGNBVGY3TQOJQ').split('.');
    const fullTag = Buffer.from(tag!, 'base64url');
    const resized = length <= fullTag.length ? fullTag.subarray(0, length) : Buffer.concat([fullTag, Buffer.alloc(length - fullTag.length)]);
    expect(() => box.open([version, iv, resized.toString('base64url'), ciphertext].join('.'))).toThrow();
  });
});

describe('signed cookie values', () => {
  const key = new KeyRing('token-signing', [environmentKey(randomBytes(32))]);
  const now = new Date('2030-01-01T00:00:00Z');
  const value = signValue({ purpose: 'login-challenge', userId: 'u1', siteId: 'firstbank', expiresAt: now.getTime() + 60_000 }, key, now);

  it('reads back a genuine, live value of the right purpose only', () => {
    expect(readSignedValue(value, 'login-challenge', key, now)).toMatchObject({ userId: 'u1', siteId: 'firstbank' });
    expect(readSignedValue(value, 'trusted-device', key, now)).toBeNull();
    expect(readSignedValue(value, 'login-challenge', key, new Date(now.getTime() + 60_000))).toBeNull();
    expect(readSignedValue(value, 'login-challenge', new KeyRing('token-signing', [environmentKey(randomBytes(32))]), now)).toBeNull();
    expect(readSignedValue(undefined, 'login-challenge', key, now)).toBeNull();
    expect(readSignedValue('garbage', 'login-challenge', key, now)).toBeNull();
    const [body, signature, keyId] = value.split('.');
    expect(keyId).toBe('env');
    const forged = Buffer.from(JSON.stringify({ purpose: 'login-challenge', userId: 'u2', siteId: 'firstbank', expiresAt: now.getTime() + 60_000 })).toString(
      'base64url',
    );
    expect(readSignedValue(`${forged}.${signature}.env`, 'login-challenge', key, now)).toBeNull();
    // A value from before the rings names no key: the environment's.
    expect(readSignedValue(`${body}.${signature}`, 'login-challenge', key, now)).toMatchObject({ userId: 'u1' });
    expect(body).toBeTruthy();
  });
});
