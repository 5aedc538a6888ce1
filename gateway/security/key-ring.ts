import { hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../db/database';
import { DatabaseUnavailableError } from '../db/database-outage';
import { createSecretBox } from './secret-box';
import { loadServerKey } from './server-keys';

/**
 * The server keys' rings (docs/decisions/0026-metrics-and-admin-command.md "Key rotation with a grace window",
 * table `server_keys`, migration 026). Per name, the current key signs, seals and fingerprints; the earlier ones
 * only verify and open until their `retiresAt`. Everything signed or sealed names its key's id; a value from
 * before the rings names none and is the environment's key, `env`.
 */
export const KEY_NAMES = ['token-signing', 'totp-encryption', 'card-fingerprint'] as const;
export type KeyName = (typeof KEY_NAMES)[number];

/** The environment variable whose key is each ring's first entry and the root its other keys are sealed under. */
export const ROOT_KEY_VARIABLES: Readonly<Record<KeyName, string>> = {
  'token-signing': 'TOKEN_SIGNING_KEY',
  'totp-encryption': 'TOTP_ENCRYPTION_KEY',
  'card-fingerprint': 'CARD_FINGERPRINT_KEY',
};

export const ENV_KEY_ID = 'env';
/** How often each instance reads the rings again (README "Rotating a key"). */
export const KEY_RING_REFRESH_MS = 30_000;
/**
 * A rotated key signs from this long after the rotation: two refreshes, so every instance that can reach the
 * database has read it (and verifies with it) before any instance signs with it.
 */
export const KEY_ACTIVATION_DELAY_MS = 2 * KEY_RING_REFRESH_MS;

export interface RingKey {
  id: string;
  secret: Buffer;
  createdAt: Date;
  activatesAt: Date;
  /** From then on nothing under this key verifies or opens; null: it has not been replaced. */
  retiresAt: Date | null;
}

export class KeyRing {
  private keys: readonly RingKey[];

  constructor(
    readonly name: KeyName,
    keys: readonly RingKey[],
  ) {
    this.keys = sortedNewestFirst(keys);
  }

  /** The keys not retired at `now`, newest first; a key whose activation is still ahead verifies already. */
  live(now: Date): RingKey[] {
    return this.keys.filter((key) => key.retiresAt === null || key.retiresAt > now);
  }

  /** The key that signs and seals at `now`: the newest one active. */
  current(now: Date): RingKey {
    const live = this.live(now);
    const current = live.find((key) => key.activatesAt <= now) ?? live.at(-1);
    if (current === undefined) throw new Error(`The ${this.name} key ring has no live key`);
    return current;
  }

  /** The live key `id`, or undefined (unknown, or retired). */
  find(id: string, now: Date): RingKey | undefined {
    return this.live(now).find((key) => key.id === id);
  }

  replace(keys: readonly RingKey[]): void {
    this.keys = sortedNewestFirst(keys);
  }
}

function sortedNewestFirst(keys: readonly RingKey[]): RingKey[] {
  return [...keys].sort((a, b) => b.activatesAt.getTime() - a.activatesAt.getTime());
}

/** The three environment keys: each ring's `env` entry and its root. */
export type RootKeys = Readonly<Record<KeyName, Buffer>>;

/** Random roots: a gateway given no keys (tests), whose tokens and sealed secrets live as long as the process. */
export function randomRootKeys(): RootKeys {
  return { 'token-signing': randomBytes(32), 'totp-encryption': randomBytes(32), 'card-fingerprint': randomBytes(32) };
}

/** A ring's first entry as migration 026 records it: the environment's key, active since ever, not replaced. */
export function environmentKey(secret: Buffer): RingKey {
  return { id: ENV_KEY_ID, secret, createdAt: new Date(0), activatesAt: new Date(0), retiresAt: null };
}

/**
 * The roots from their variables (hex or base64, at least 32 bytes) or, unset, from the key files under
 * `{dataDir}/secrets` (development). The TOTP key is AES-256's 32 bytes, as before the rings.
 */
export async function loadRootKeys(values: Readonly<Record<KeyName, string | undefined>>, dataDir: string): Promise<RootKeys> {
  return {
    'token-signing': await loadRootKey('token-signing', values['token-signing'], dataDir),
    'totp-encryption': await loadRootKey('totp-encryption', values['totp-encryption'], dataDir),
    'card-fingerprint': await loadRootKey('card-fingerprint', values['card-fingerprint'], dataDir),
  };
}

/** One root, as `loadRootKeys` reads it. */
export async function loadRootKey(name: KeyName, value: string | undefined, dataDir: string): Promise<Buffer> {
  const key = await loadServerKey({ envName: ROOT_KEY_VARIABLES[name], envValue: value, dataDir, fileName: `${name}.key` });
  return name === 'totp-encryption' ? key.subarray(0, 32) : key;
}

/** The three rings of one gateway, read again from `server_keys` every KEY_RING_REFRESH_MS. */
export class ServerKeyRings {
  readonly token: KeyRing;
  readonly totp: KeyRing;
  readonly card: KeyRing;

  constructor(private readonly roots: RootKeys) {
    this.token = new KeyRing('token-signing', [environmentKey(roots['token-signing'])]);
    this.totp = new KeyRing('totp-encryption', [environmentKey(roots['totp-encryption'])]);
    this.card = new KeyRing('card-fingerprint', [environmentKey(roots['card-fingerprint'])]);
  }

  /** The environment's token key: recovery-code hashes (ADR 0026: they cannot be hashed again) and derived development keys. */
  get tokenRoot(): Buffer {
    return this.roots['token-signing'];
  }

  /** Reads every ring; throws, changing nothing, when a stored key does not open under its root. */
  async refresh(db: Queryable): Promise<void> {
    const { rows } = await db.query<KeyRow>(`select ${KEY_COLUMNS} from server_keys`);
    const read = KEY_NAMES.map((name) => [name, rows.filter((row) => row.name === name).map((row) => ringKeyOf(row, this.roots[name]))] as const);
    for (const [name, keys] of read) if (keys.length > 0) this.ring(name).replace(keys);
  }

  /**
   * README "Rotating a key": refreshes every `intervalMs`, then runs `afterRefresh`, until the returned stop is called;
   * a failed read keeps the rings and is logged, except a database outage, which is logged once where it starts
   * (README "Database outage").
   */
  refreshEvery(
    db: Queryable,
    logger: FastifyBaseLogger,
    intervalMs = KEY_RING_REFRESH_MS,
    afterRefresh: () => Promise<void> = async () => undefined,
  ): () => void {
    const failed = (message: string) => (error: unknown) => {
      if (!(error instanceof DatabaseUnavailableError)) logger.error({ err: error }, message);
    };
    const timer = setInterval(() => {
      this.refresh(db).then(
        () => afterRefresh().catch(failed('the work after a key refresh failed; the next refresh tries again')),
        failed('the server key rings could not be read again; the rings read before stay in use'),
      );
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  private ring(name: KeyName): KeyRing {
    return name === 'token-signing' ? this.token : name === 'totp-encryption' ? this.totp : this.card;
  }
}

export const KEY_COLUMNS = 'name, id, sealed_secret, created_at, activates_at, retires_at';

/** A row of `server_keys`. */
export interface KeyRow {
  name: KeyName;
  id: string;
  sealed_secret: string | null;
  created_at: Date | string;
  activates_at: Date | string;
  retires_at: Date | string | null;
}

/** The row's key, opened under `root`; throws KeyRingError when it was sealed under another root. */
export function ringKeyOf(row: KeyRow, root: Buffer): RingKey {
  return {
    id: row.id,
    secret: row.sealed_secret === null ? root : openKey(root, row.name, row.id, row.sealed_secret),
    createdAt: new Date(row.created_at),
    activatesAt: new Date(row.activates_at),
    retiresAt: row.retires_at === null ? null : new Date(row.retires_at),
  };
}

/** The key-encryption key of a ring: derived from its root, apart from every other use of that key. */
function keyEncryptionKey(root: Buffer, name: KeyName): Buffer {
  return Buffer.from(hkdfSync('sha256', root, Buffer.alloc(0), `server-key-ring:${name}`, 32));
}

/** A key sealed with its name and id inside, so a row copied under another name or id does not open. */
export function sealKey(root: Buffer, name: KeyName, id: string, secret: Buffer): string {
  return createSecretBox(keyEncryptionKey(root, name)).seal(`${name}:${id}:${secret.toString('hex')}`);
}

export class KeyRingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyRingError';
  }
}

function openKey(root: Buffer, name: KeyName, id: string, sealed: string): Buffer {
  let plaintext: string;
  try {
    plaintext = createSecretBox(keyEncryptionKey(root, name)).open(sealed);
  } catch {
    throw new KeyRingError(
      `The ${name} key ${id} does not open under this process's ${ROOT_KEY_VARIABLES[name]}: it was sealed under another one. ` +
        `Every instance and the admin command need the ${ROOT_KEY_VARIABLES[name]} the ring was made with.`,
    );
  }
  const [sealedName, sealedId, hex] = plaintext.split(':');
  if (sealedName !== name || sealedId !== id || hex === undefined) throw new KeyRingError(`The ${name} key ${id} was sealed as another key`);
  return Buffer.from(hex, 'hex');
}

/** A new key's bytes: 256 bits, as every server key (MIN_KEY_BYTES). */
export function newKeySecret(): Buffer {
  return randomBytes(32);
}
