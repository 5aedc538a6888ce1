import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { loadServerKey, MIN_KEY_BYTES } from './server-keys';

/**
 * Card numbers are never stored (DESIGN "Contracts"). To still recognise the same card twice
 * (SPEC §5 "Duplicate of a listed number invalid") the database keeps an HMAC-SHA256 of the
 * digits under a server key: without the key, the 16 digits cannot be brute-forced back out
 * of a fingerprint the way a plain hash could.
 */
export type CardFingerprinter = (pan: string) => string;

const CARD_DIGITS = /^\d{12,19}$/;
export const KEY_FILE = join('secrets', 'card-fingerprint.key');

export function createCardFingerprinter(key: Buffer): CardFingerprinter {
  if (key.length < MIN_KEY_BYTES) throw new Error(`The card fingerprint key must be at least ${MIN_KEY_BYTES} bytes`);
  return (pan) => {
    const digits = pan.replace(/[\s-]/g, '');
    // The message never repeats the input: it may be a card number.
    if (!CARD_DIGITS.test(digits)) throw new Error('A card number must be 12 to 19 digits');
    return createHmac('sha256', key).update(digits).digest('hex');
  };
}

/**
 * The key from CARD_FINGERPRINT_KEY (hex or base64, at least 32 bytes) or, when unset, from
 * `{dataDir}/secrets/card-fingerprint.key`, created once with mode 0600 and reused after.
 */
export function loadCardFingerprintKey(options: { envValue: string | undefined; dataDir: string }): Promise<Buffer> {
  return loadServerKey({ envName: 'CARD_FINGERPRINT_KEY', envValue: options.envValue, dataDir: options.dataDir, fileName: 'card-fingerprint.key' });
}
