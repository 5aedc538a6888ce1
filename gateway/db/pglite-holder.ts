import { readFile, rm, writeFile } from 'node:fs/promises';

/**
 * PGlite keeps no lock on its data folder: two processes opening it would each run their own PostgreSQL on the
 * same files and corrupt them (ADR 0003). So whoever opens it (the gateway, `npm run admin`) first writes
 * `<folder>.holder` with its process id, and refuses while another live process holds it. A holder file left by a
 * killed process names a process that no longer runs, and is taken over.
 */
export interface PgliteHolder {
  pid: number;
  program: 'gateway' | 'admin';
  since: string;
}

export class PgliteHeldError extends Error {
  constructor(readonly holder: PgliteHolder) {
    super(`The embedded database is held by a running ${holder.program} (process ${String(holder.pid)}, since ${holder.since})`);
    this.name = 'PgliteHeldError';
  }
}

export const holderFileOf = (dataDir: string): string => `${dataDir}.holder`;

/** Takes the folder for this process, or throws PgliteHeldError; the returned function gives it back. */
export async function holdPgliteFolder(dataDir: string, program: PgliteHolder['program']): Promise<() => Promise<void>> {
  const file = holderFileOf(dataDir);
  const mine: PgliteHolder = { pid: process.pid, program, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      await writeFile(file, `${JSON.stringify(mine)}\n`, { flag: 'wx', mode: 0o600 });
      return async () => {
        const current = await readHolder(file);
        if (current?.pid === process.pid) await rm(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readHolder(file);
    if (holder !== null && holder.pid !== process.pid && isRunning(holder.pid)) throw new PgliteHeldError(holder);
    // Left by a process that stopped without giving it back (killed): taken over.
    await rm(file, { force: true });
  }
  throw new Error(`Could not take ${file}: another process took it at the same moment; try again`);
}

async function readHolder(file: string): Promise<PgliteHolder | null> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<PgliteHolder>;
    return typeof parsed.pid === 'number' ? { pid: parsed.pid, program: parsed.program ?? 'gateway', since: parsed.since ?? 'unknown' } : null;
  } catch {
    return null;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
