import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '../config';

/**
 * DATA_DIR holds the embedded database (its WAL keeps national ids and password hashes), the
 * generated keys and the outbox: its owner's alone. The gateway runs with umask 077, so whatever it
 * creates is private; PGlite, however, sets the mode of the files it copies out of its initial
 * database itself (0666), and files from an earlier version may be open too. So DATA_DIR is made
 * 0700 before anything is written, and every folder of the gateway's own under it 0700, every file
 * 0600, once the database is open and again when it is closed.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** The gateway's own folders in DATA_DIR; anything else a person keeps there is left as it is. */
export const GATEWAY_FOLDERS = ['db', 'secrets', 'outbox'] as const;

/** No file the process creates is readable or writable by group or others. */
export function restrictNewFiles(): void {
  process.umask(0o077);
}

/** Creates DATA_DIR when missing and makes it 0700; a folder the gateway cannot own is a one-line refusal. */
export async function makeDataDirPrivate(dataDir: string): Promise<void> {
  try {
    await mkdir(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    await chmod(dataDir, PRIVATE_DIR_MODE);
  } catch (error) {
    throw notPrivate(dataDir, error);
  }
}

/** DATA_DIR 0700, and each gateway folder under it: folders 0700, files 0600 (symbolic links are not followed). */
export async function makeDataFilesPrivate(dataDir: string): Promise<void> {
  await makeDataDirPrivate(dataDir);
  for (const folder of GATEWAY_FOLDERS) {
    try {
      await restrictTree(join(dataDir, folder));
    } catch (error) {
      throw notPrivate(join(dataDir, folder), error);
    }
  }
}

function notPrivate(path: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === undefined) return error;
  return new ConfigError([`DATA_DIR must be a folder of the gateway's own user that it can make private (0700), but ${path} answered ${code}`]);
}

async function restrictTree(path: string): Promise<void> {
  const info = await lstat(path).catch(ignoreVanished);
  if (info === undefined || info.isSymbolicLink()) return;
  const mode = info.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
  if ((info.mode & 0o777) !== mode) await chmod(path, mode).catch(ignoreVanished);
  if (!info.isDirectory()) return;
  const names = (await readdir(path).catch(ignoreVanished)) ?? [];
  for (const name of names) await restrictTree(join(path, name));
}

/** The database removes temporary files while it runs; one gone between listing and chmod is fine. */
function ignoreVanished(error: NodeJS.ErrnoException): undefined {
  if (error.code === 'ENOENT') return undefined;
  throw error;
}
