import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database, Queryable } from '../../../gateway/db/database';
import { loadFixtures, type Fixtures } from '../../../gateway/fixtures/load-fixtures';
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

/** Both gateway bases of SPEC §7. */
export const API_BASES = ['/api', '/gateway/api'] as const;

/** A fixed XSRF pair: state-changing calls must echo the XSRF-TOKEN cookie in X-XSRF-TOKEN (ADR 0008). */
export const TEST_XSRF_TOKEN = 'test-xsrf-token-0123456789';

/** `headers` plus a matching XSRF cookie and header, appended to any cookie already there. */
export function withXsrf(headers: Record<string, string> = {}): Record<string, string> {
  const cookie = [headers.cookie, `XSRF-TOKEN=${TEST_XSRF_TOKEN}`].filter(Boolean).join('; ');
  return { ...headers, cookie, 'x-xsrf-token': TEST_XSRF_TOKEN };
}
