import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCardFingerprinter, KEY_FILE } from '../../../gateway/security/card-fingerprint';
import { environmentKey, KeyRing, loadRootKeys } from '../../../gateway/security/key-ring';
import { AdjustableClock } from '../../../gateway/time/clock';

const dataDir = await mkdtemp(join(tmpdir(), 'gateway-key-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));
const unset = { 'token-signing': undefined, 'totp-encryption': undefined, 'card-fingerprint': undefined };

describe('the card key from loadRootKeys', () => {
  it('creates a random key file readable by the owner only, then reuses it', async () => {
    const first = (await loadRootKeys(unset, dataDir))['card-fingerprint'];
    expect(first.length).toBe(32);
    expect((await stat(join(dataDir, KEY_FILE))).mode & 0o777).toBe(0o600);
    const again = (await loadRootKeys({ ...unset, 'card-fingerprint': '' }, dataDir))['card-fingerprint'];
    expect(again.equals(first)).toBe(true);
    expect((await readFile(join(dataDir, KEY_FILE), 'utf8')).trim()).toBe(first.toString('hex'));
  });

  it('prefers CARD_FINGERPRINT_KEY, as hex or base64', async () => {
    const key = Buffer.alloc(32, 7);
    expect((await loadRootKeys({ ...unset, 'card-fingerprint': key.toString('hex') }, dataDir))['card-fingerprint'].equals(key)).toBe(true);
    expect((await loadRootKeys({ ...unset, 'card-fingerprint': key.toString('base64') }, dataDir))['card-fingerprint'].equals(key)).toBe(true);
  });

  it('refuses a key shorter than 32 bytes', async () => {
    await expect(loadRootKeys({ ...unset, 'card-fingerprint': 'ab'.repeat(16) }, dataDir)).rejects.toThrow(/CARD_FINGERPRINT_KEY must hold at least 32 bytes/);
  });
});

describe('createCardFingerprinter', () => {
  const clock = new AdjustableClock();
  const ringOf = (secret: Buffer) => new KeyRing('card-fingerprint', [environmentKey(secret)]);
  const fingerprint = (pan: string) => createCardFingerprinter(ringOf(Buffer.alloc(32, 1)), clock)(pan).fingerprint;

  it('gives the same hex fingerprint for the same digits, however grouped', () => {
    expect(fingerprint('4111111111111111')).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint('4111 1111 1111 1111')).toBe(fingerprint('4111111111111111'));
    expect(fingerprint('4111111111111111')).not.toBe(fingerprint('4242424242424242'));
  });

  it('depends on the key', () => {
    expect(createCardFingerprinter(ringOf(Buffer.alloc(32, 2)), clock)('4111111111111111').fingerprint).not.toBe(fingerprint('4111111111111111'));
  });

  it('fingerprints under the current key and under every earlier one (ADR 0026)', () => {
    const now = clock.now();
    const next = { id: 'k2', secret: Buffer.alloc(32, 2), createdAt: now, activatesAt: now, retiresAt: null };
    const both = createCardFingerprinter(new KeyRing('card-fingerprint', [environmentKey(Buffer.alloc(32, 1)), next]), clock)('4111111111111111');
    expect(both).toEqual({
      keyId: 'k2',
      fingerprint: createCardFingerprinter(ringOf(Buffer.alloc(32, 2)), clock)('4111111111111111').fingerprint,
      earlier: [fingerprint('4111111111111111')],
    });
  });

  it('rejects a value that is not a card number without repeating it', () => {
    expect(() => fingerprint('4111-abc-secret')).toThrow('A card number must be 12 to 19 digits');
  });
});
