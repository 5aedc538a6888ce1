import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCardFingerprinter, KEY_FILE, loadCardFingerprintKey } from '../../../gateway/security/card-fingerprint';

const dataDir = await mkdtemp(join(tmpdir(), 'gateway-key-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('loadCardFingerprintKey', () => {
  it('creates a random key file readable by the owner only, then reuses it', async () => {
    const first = await loadCardFingerprintKey({ envValue: undefined, dataDir });
    expect(first.length).toBe(32);
    expect((await stat(join(dataDir, KEY_FILE))).mode & 0o777).toBe(0o600);
    const again = await loadCardFingerprintKey({ envValue: '', dataDir });
    expect(again.equals(first)).toBe(true);
    expect((await readFile(join(dataDir, KEY_FILE), 'utf8')).trim()).toBe(first.toString('hex'));
  });

  it('prefers CARD_FINGERPRINT_KEY, as hex or base64', async () => {
    const key = Buffer.alloc(32, 7);
    expect((await loadCardFingerprintKey({ envValue: key.toString('hex'), dataDir })).equals(key)).toBe(true);
    expect((await loadCardFingerprintKey({ envValue: key.toString('base64'), dataDir })).equals(key)).toBe(true);
  });

  it('refuses a key shorter than 32 bytes', async () => {
    await expect(loadCardFingerprintKey({ envValue: 'ab'.repeat(16), dataDir })).rejects.toThrow(/at least 32 bytes/);
  });
});

describe('createCardFingerprinter', () => {
  const fingerprint = createCardFingerprinter(Buffer.alloc(32, 1));

  it('gives the same hex fingerprint for the same digits, however grouped', () => {
    expect(fingerprint('4111111111111111')).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint('4111 1111 1111 1111')).toBe(fingerprint('4111111111111111'));
    expect(fingerprint('4111111111111111')).not.toBe(fingerprint('4242424242424242'));
  });

  it('depends on the key', () => {
    expect(createCardFingerprinter(Buffer.alloc(32, 2))('4111111111111111')).not.toBe(fingerprint('4111111111111111'));
  });

  it('rejects a value that is not a card number without repeating it', () => {
    expect(() => fingerprint('4111-abc-secret')).toThrow('A card number must be 12 to 19 digits');
  });
});
