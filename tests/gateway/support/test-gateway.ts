import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database, Queryable } from '../../../gateway/db/database';
import { loadFixtures, type Fixtures } from '../../../gateway/site-files/load-fixtures';
import { buildGateway } from '../../../gateway/server';

let fixtures: Promise<Fixtures> | undefined;
/** The real `fixtures/` folder, read once per test file. */
export function realFixtures(): Promise<Fixtures> {
  fixtures ??= loadFixtures();
  return fixtures;
}

/** Only the health route touches the database; the others get this stand-in, which answers like a healthy one. */
export const stubDatabase: Database = {
  kind: 'pglite',
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- Queryable.query<T> is generic, so its stand-in is too
  query: async <T>() => ({ rows: [] as T[] }),
  exec: async () => undefined,
  transaction: <T>(work: (tx: Queryable) => Promise<T>) => work(stubDatabase),
  close: async () => undefined,
};

export async function buildTestGateway(options: { db?: Database; distDir?: string; logger?: FastifyBaseLogger } = {}): Promise<FastifyInstance> {
  return buildGateway({ db: options.db ?? stubDatabase, fixtures: await realFixtures(), ...options, testMode: true });
}

/** A test gateway serving a build folder of the test's own; `close` stops it and removes the folder. */
export interface GatewayOnBuild {
  app: FastifyInstance;
  distDir: string;
  close: () => Promise<void>;
}

/** Writes `files` (each path inside the build folder, e.g. `assets/index-abc123.js`) to a temporary folder and builds a test gateway on it. */
export async function gatewayOnBuild(files: Readonly<Record<string, string>>): Promise<GatewayOnBuild> {
  const distDir = await mkdtemp(join(tmpdir(), 'gateway-dist-'));
  const removeDist = () => rm(distDir, { recursive: true, force: true });
  try {
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(distDir, path)), { recursive: true });
      await writeFile(join(distDir, path), text);
    }
    const app = await buildTestGateway({ distDir });
    return {
      app,
      distDir,
      close: async () => {
        await app.close();
        await removeDist();
      },
    };
  } catch (error) {
    await removeDist();
    throw error;
  }
}

/** Both gateway bases of SPEC §7. */
export const API_BASES = ['/api', '/gateway/api'] as const;

/** A fixed XSRF pair: state-changing calls must echo the XSRF-TOKEN cookie in X-XSRF-TOKEN (ADR 0008). */
export const TEST_XSRF_TOKEN = 'test-xsrf-token-0123456789';

/** `headers` plus a matching XSRF cookie and header, appended to any cookie already there. */
export function withXsrf(headers: Record<string, string> = {}): Record<string, string> {
  const cookie = [headers.cookie, `XSRF-TOKEN=${TEST_XSRF_TOKEN}`].filter(Boolean).join('; ');
  return { ...headers, cookie, 'x-xsrf-token': TEST_XSRF_TOKEN };
}
