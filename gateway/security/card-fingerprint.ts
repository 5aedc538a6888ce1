import { createHmac, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Card numbers are never stored (DESIGN "Contracts"). To still recognise the same card twice
 * (SPEC §5 "Duplicate of a listed number invalid") the database keeps an HMAC-SHA256 of the
 * digits under a server key: without the key, the 16 digits cannot be brute-forced back out
 * of a fingerprint the way a plain hash could.
 */
export type CardFingerprinter = (pan: string) => string;

const MIN_KEY_BYTES = 32;
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
 * Several gateway instances on one PostgreSQL server must share the key: set the variable there.
 */
export async function loadCardFingerprintKey(options: { envValue: string | undefined; dataDir: string }): Promise<Buffer> {
  if (options.envValue !== undefined && options.envValue !== '') return decodeKey(options.envValue, 'CARD_FINGERPRINT_KEY');

  const secretsDir = join(options.dataDir, 'secrets');
  const keyFile = join(options.dataDir, KEY_FILE);
  await mkdir(secretsDir, { recursive: true, mode: 0o700 });
  try {
    // 'wx' fails when the file exists, so two processes starting together cannot both write a key.
    await writeFile(keyFile, `${randomBytes(MIN_KEY_BYTES).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  await chmod(keyFile, 0o600);
  return decodeKey((await readFile(keyFile, 'utf8')).trim(), keyFile);
}

function decodeKey(text: string, source: string): Buffer {
  const key = /^(?:[0-9a-fA-F]{2})+$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length < MIN_KEY_BYTES) {
    throw new Error(`${source} must hold at least ${MIN_KEY_BYTES} bytes as hex or base64 (e.g. \`openssl rand -hex 32\`)`);
  }
  return key;
}
