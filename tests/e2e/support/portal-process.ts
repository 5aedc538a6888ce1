import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { LOG_DIR, registerGateway } from '../../security/secrecy-registry';
import { freePort } from '../../support/free-port';
import { E2E_DIST_DIR, REPO_ROOT } from './paths';

/**
 * The built gateway a project's global setup made once (gateway/cli/gateway-bundle.ts): `entry` is its
 * main.js; `templateDataDir`, when given, a data dir one development start already migrated and seeded.
 */
export interface PortalGateway {
  entry: string;
  templateDataDir?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    portalGateway: PortalGateway;
  }
}

/** A real gateway process serving the built app, as `npm start` runs it, on a free port. */
export interface PortalProcess {
  baseUrl: string;
  dataDir: string;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/**
 * Starts `node <gateway.entry>` (by default the one the test project's global setup provides). Without
 * DATA_DIR and DATABASE_URL it runs on a fresh copy of the template data dir, when there is one: the demo
 * users are already there, so no start pays for the migrations and the argon2 hashing of the seed again.
 */
export async function startPortal(env: Record<string, string> = {}, gateway: PortalGateway = inject('portalGateway')): Promise<PortalProcess> {
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  const databaseUrl = env.DATABASE_URL ?? process.env.DATABASE_URL;
  // A copy into the fresh folder keeps it 0700 and the files as the template's gateway left them (0600).
  if (env.DATA_DIR === undefined && databaseUrl === undefined && gateway.templateDataDir !== undefined)
    await cp(gateway.templateDataDir, dataDir, { recursive: true });
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [gateway.entry], {
    cwd: REPO_ROOT,
    // Development mode (ADR 0018), as `npm start` runs it: the tests read the outbox and use the test identity provider.
    env: { ...process.env, NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DIST_DIR: E2E_DIST_DIR, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The secrecy scan (README "Set-up"): every log line and the database are scanned for secrets after the whole run.
  mkdirSync(LOG_DIR, { recursive: true });
  const logFile = `${LOG_DIR}/portal-${port}-${child.pid ?? 'x'}-${Date.now()}.log`;
  const log = createWriteStream(logFile);
  registerGateway({ log: logFile, dataDir, ...(databaseUrl ? { databaseUrl } : {}) });
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    log.write(chunk);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // 'close' comes after the last output chunk, 'exit' may not.
  child.once('close', () => log.end());
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The gateway exited with ${child.exitCode} before it was healthy:\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The gateway did not become healthy within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    baseUrl,
    dataDir,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
