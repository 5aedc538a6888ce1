/**
 * Gateway latency under load (README "Benchmark"): the signed-in reads of SPEC §7 at a fixed rate on
 * loopback, and password sign-ins per second. The gateway is its own process (startPortal) on its
 * embedded PGlite database, so autocannon, in this process, never shares its event loop.
 *
 * Sign-ins: ADR 0008 allows 30 login calls per IP per 5 minutes. The gateway under load runs in
 * development mode (startPortal) with TRUST_PROXY=true (README "Environment") and each sign-in names
 * its own client address in X-Forwarded-For, so the per-IP limit counts 'different people' instead of
 * refusing the load; production mode refuses TRUST_PROXY=true (ADR 0017).
 *
 * The reads' reference is a bare Fastify route in a process of its own, under the same load from the same tool
 * just before each read.
 *
 * With TEST_DATABASE_URL set, the reads run a second time with the gateway on a fresh PostgreSQL
 * database of that server (README "Environment" DATABASE_URL): the scale path, where queries leave
 * the gateway's one thread.
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { hashPassword, verifyPassword } from '../../gateway/security/password-hashing';
import { REPO_ROOT } from '../e2e/support/paths';
import { ratio, startBenchPortal, type BenchRow } from './bench-table';
import { demoUserWithoutPasscode, passwordSignInFields, signIn } from './demo-sign-in';

const READ_RATE_PER_SECOND = 1_000;
const READ_DURATION_SECONDS = 10;
const READ_P99_TARGET_MS = 10;
const LOGIN_CONNECTIONS = 8;
const LOGIN_DURATION_SECONDS = 10;

type ReadTarget = { label: string; env: Record<string, string> };
interface ReadLatency {
  p50: number;
  p99: number;
  errors: number;
  total: number;
}

/** The reads' load: the same for the gateway and for its reference. */
const readLoad = (url: string, headers: Record<string, string> = {}) =>
  autocannon({ url, connections: 20, overallRate: READ_RATE_PER_SECOND, duration: READ_DURATION_SECONDS, headers });

/**
 * A bare Fastify route (the gateway's framework and version, its defaults) answering a small JSON body and
 * nothing else, in a process of its own as the gateway is: what the reads cost before any of the gateway's work.
 */
const BARE_FASTIFY = `const app = require('fastify')();
app.get('/', async () => ({ ok: true }));
app.listen({ port: 0, host: '127.0.0.1' }).then(() => console.log(app.server.address().port));`;

/** Starts the bare Fastify route in a child process; answers its URL and how to stop it. */
async function startBareFastify(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['-e', BARE_FASTIFY], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
      child.once('exit', (code) => reject(new Error(`the bench's bare Fastify route exited with ${String(code)}`)));
    });
    return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill() };
  } catch (error) {
    child.kill();
    throw error;
  }
}

async function readLatency(url: string, headers: Record<string, string> = {}): Promise<ReadLatency> {
  const result = await readLoad(url, headers);
  return { p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx, total: result.requests.total };
}

/**
 * Each read at the fixed rate, right after the same load on the bare Fastify route at `bareUrl` (its reference,
 * measured again before each read so that a busy moment of the machine hits both alike).
 */
async function readRows(distDir: string, target: ReadTarget, bareUrl: string): Promise<BenchRow[]> {
  const portal = await startBenchPortal({ DIST_DIR: distDir, ...target.env });
  const rows: BenchRow[] = [];
  try {
    const user = demoUserWithoutPasscode();
    const { cookie } = await signIn(portal.baseUrl, user);
    const reads = [
      { name: 'profile read GET user-mgmt/user/find', path: '/api/user-mgmt/user/find' },
      { name: `attributes read GET user-attribute/user/${user.siteId}`, path: `/api/user-attribute/user/${user.siteId}` },
      { name: `assets read GET user-attribute/user/assets/${user.siteId}`, path: `/api/user-attribute/user/assets/${user.siteId}` },
    ];
    for (const read of reads) {
      const probe = await fetch(`${portal.baseUrl}${read.path}`, { headers: { cookie } });
      if (!probe.ok) throw new Error(`${read.name} answered ${probe.status} before the load: ${await probe.text()}`);
      const reference = await readLatency(bareUrl);
      const result = await readLatency(`${portal.baseUrl}${read.path}`, { cookie });
      rows.push({
        figure: `${read.name} (${target.label}), ${READ_RATE_PER_SECOND} req/s for ${READ_DURATION_SECONDS} s (p50/p99, errors of ${result.total})`,
        value: `${result.p50} / ${result.p99} ms, ${result.errors} errors`,
        reference: `bare Fastify route just before: ${reference.p50} / ${reference.p99} ms, ${reference.errors} errors of ${reference.total}`,
        ratio: `p99 ${ratio(result.p99, reference.p99)}`,
        target: `p99 <= ${READ_P99_TARGET_MS} ms, 0 errors`,
        met: result.p99 <= READ_P99_TARGET_MS && result.errors === 0 && result.total >= READ_RATE_PER_SECOND * READ_DURATION_SECONDS * 0.95,
      });
    }
  } finally {
    await portal.stop();
  }
  return rows;
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The reads on a fresh PostgreSQL database of TEST_DATABASE_URL's server, dropped afterwards. */
async function postgresReadRows(distDir: string, serverUrl: string, bareUrl: string): Promise<BenchRow[]> {
  const name = `bench_${randomBytes(6).toString('hex')}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await adminQuery(serverUrl, `create database ${name}`);
  try {
    return await readRows(distDir, { label: 'PostgreSQL', env: { DATABASE_URL: url.toString() } }, bareUrl);
  } finally {
    await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
  }
}

export async function gatewayLoadRows(distDir: string): Promise<BenchRow[]> {
  const bare = await startBareFastify();
  const rows: BenchRow[] = [];
  try {
    rows.push(...(await readRows(distDir, { label: 'embedded PGlite', env: {} }, bare.url)));
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (serverUrl) rows.push(...(await postgresReadRows(distDir, serverUrl, bare.url)));
  } finally {
    bare.stop();
  }
  rows.push(...(await loginRows(distDir)));
  return rows;
}

/**
 * The sign-ins' reference: the gateway's own argon2id verification (gateway/security/password-hashing.ts) alone,
 * as many at a time as the load has clients, for as long.
 */
async function argon2VerifiesPerSecond(): Promise<number> {
  const stored = await hashPassword('Bench#Password2026');
  let verified = 0;
  const until = performance.now() + LOGIN_DURATION_SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: LOGIN_CONNECTIONS }, async () => {
      while (performance.now() < until) {
        if (await verifyPassword(stored, 'Bench#Password2026')) verified += 1;
      }
    }),
  );
  return verified / ((performance.now() - started) / 1000);
}

async function loginRows(distDir: string): Promise<BenchRow[]> {
  const reference = await argon2VerifiesPerSecond();
  const portal = await startBenchPortal({ DIST_DIR: distDir, TRUST_PROXY: 'true' });
  const rows: BenchRow[] = [];
  try {
    const user = demoUserWithoutPasscode();
    const { xsrf } = await signIn(portal.baseUrl, user);
    let caller = 0;
    const body = new URLSearchParams(passwordSignInFields(user)).toString();
    const logins = await autocannon({
      url: `${portal.baseUrl}/api/user-auth/login`,
      connections: LOGIN_CONNECTIONS,
      duration: LOGIN_DURATION_SECONDS,
      requests: [
        {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf },
          setupRequest: (request) => {
            caller += 1;
            return { ...request, headers: { ...request.headers, 'x-forwarded-for': `10.${(caller >> 16) & 255}.${(caller >> 8) & 255}.${caller & 255}` } };
          },
        },
      ],
    });
    const loginErrors = logins.errors + logins.timeouts + logins.non2xx;
    rows.push({
      figure: `password sign-ins POST user-auth/login, ${LOGIN_CONNECTIONS} clients for ${LOGIN_DURATION_SECONDS} s (argon2id m=19 MiB t=2 p=1; p50 latency, errors)`,
      value: `${(logins['2xx'] / logins.duration).toFixed(1)} logins/s, p50 ${logins.latency.p50} ms, ${loginErrors} errors`,
      reference: `argon2id verifies alone, ${LOGIN_CONNECTIONS} at a time: ${reference.toFixed(1)}/s`,
      ratio: ratio(logins['2xx'] / logins.duration, reference),
      target: 'none (printed)',
      met: loginErrors === 0 ? null : false,
    });
  } finally {
    await portal.stop();
  }
  return rows;
}
