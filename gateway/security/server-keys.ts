import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Every server key is at least 256 bits (HMAC-SHA256, AES-256-GCM). */
export const MIN_KEY_BYTES = 32;

/**
 * A server key from its environment variable (hex or base64, at least 32 bytes) or, when unset,
 * from `{dataDir}/secrets/{fileName}`, created once with mode 0600 and reused after. Several
 * gateway instances sharing one PostgreSQL must share the key: set the variable there.
 */
export async function loadServerKey(options: { envName: string; envValue: string | undefined; dataDir: string; fileName: string }): Promise<Buffer> {
  if (options.envValue !== undefined && options.envValue !== '') return decodeKey(options.envValue, options.envName);

  const secretsDir = join(options.dataDir, 'secrets');
  const keyFile = join(secretsDir, options.fileName);
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

/** A key's bytes from its hex or base64 text; `readConfig` refuses a variable whose key is shorter than MIN_KEY_BYTES. */
export function keyBytes(text: string): Buffer {
  return /^(?:[0-9a-fA-F]{2})+$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
}

function decodeKey(text: string, source: string): Buffer {
  const key = keyBytes(text);
  if (key.length < MIN_KEY_BYTES) {
    throw new Error(`${source} must hold at least ${MIN_KEY_BYTES} bytes as hex or base64 (e.g. \`openssl rand -hex 32\`)`);
  }
  return key;
}
