/**
 * Gateway latency under load (README "Benchmark"): the signed-in reads of SPEC §7 at a fixed rate on
 * loopback, and password sign-ins per second. The gateway is its own process (startPortal) on its
 * embedded PGlite database, so autocannon, in this process, never shares its event loop.
 *
 * Sign-ins: ADR 0008 allows 30 login calls per IP per 5 minutes. The gateway under load is started
 * with TRUST_PROXY=true (an existing setting, README "Environment") and each sign-in names its own
 * client address in X-Forwarded-For, so the per-IP limit counts 'different people' instead of
 * refusing the load; the production default (TRUST_PROXY=false) is untouched.
 *
 * With TEST_DATABASE_URL set, the reads run a second time with the gateway on a fresh PostgreSQL
 * database of that server (README "Environment" DATABASE_URL): the scale path, where queries leave
 * the gateway's one thread.
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { hashPassword, verifyPassword } from '../../gateway/security/password-hashing';
import { REPO_ROOT } from '../e2e/support/paths';
import { readSiteFixture } from '../support/site-fixtures';
import { startBenchPortal, type BenchRow } from './bench-table';

const READ_RATE_PER_SECOND = 1_000;
const READ_DURATION_SECONDS = 10;
const READ_P99_TARGET_MS = 10;
const LOGIN_CONNECTIONS = 8;
const LOGIN_DURATION_SECONDS = 10;

interface DemoUser {
  email: string;
  password: string;
  siteId: string;
  status: string;
}

/** Cookie header of a fresh sign-in, through the real `POST user-auth/login` (SPEC §7), with its XSRF pair. */
async function signIn(baseUrl: string, user: DemoUser): Promise<{ cookie: string; xsrf: string }> {
  const jar = new Map<string, string>();
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
  };
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  remember(await fetch(`${baseUrl}/api/site-config-service/config/site/${user.siteId}`));
  const xsrf = jar.get('XSRF-TOKEN') ?? '';
  const answer = await fetch(`${baseUrl}/api/user-auth/login`, {
    method: 'POST',
    headers: { cookie: cookieHeader(), 'x-xsrf-token': xsrf },
    body: new URLSearchParams({
      username: user.email,
      password: user.password,
      grant_type: 'password',
      siteId: user.siteId,
      locale: 'en_us',
      init_login: 'true',
    }),
  });
  if (!answer.ok) throw new Error(`bench sign-in of ${user.email}: ${answer.status} ${await answer.text()}`);
  remember(answer);
  return { cookie: cookieHeader(), xsrf };
}

/** An active demo user of a site that asks no sign-in passcode (`login_otp` none), so one call signs in. */
function demoUserWithoutPasscode(): DemoUser {
  const users = JSON.parse(readFileSync(`${REPO_ROOT}/fixtures/demo-users.json`, 'utf8')) as DemoUser[];
  const user = users.find((candidate) => {
    if (candidate.status !== 'ACTIVE') return false;
    const authProfile = readSiteFixture(candidate.siteId).siteFeatureConfigurations.find((feature) => feature.name === 'site_auth_profile');
    return (authProfile?.featureConfig as { login_otp?: string } | undefined)?.login_otp === 'none';
  });
  if (!user) throw new Error('fixtures/demo-users.json has no active user on a site without a sign-in passcode');
  return user;
}

type ReadTarget = { label: string; env: Record<string, string> };

/** The reads' load: the same for the gateway and for its reference. */
const readLoad = (url: string, headers: Record<string, string> = {}) =>
  autocannon({ url, connections: 20, overallRate: READ_RATE_PER_SECOND, duration: READ_DURATION_SECONDS, headers });

/** A Node HTTP server answering a small JSON body and nothing else, in a process of its own as the gateway is. */
const BARE_SERVER = `require('node:http').createServer((q, s) => { s.setHeader('content-type', 'application/json'); s.end('{"ok":true}'); })
  .listen(0, '127.0.0.1', function () { console.log(this.address().port); });`;

/** The reads' reference: the same load on the bare server, in this run, on this machine. */
async function bareServerReads(): Promise<string> {
  const child = spawn(process.execPath, ['-e', BARE_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
      child.once('exit', (code) => reject(new Error(`the bench's bare HTTP server exited with ${String(code)}`)));
    });
    const result = await readLoad(`http://127.0.0.1:${port}/`);
    return `bare Node HTTP server: ${result.latency.p50} / ${result.latency.p99} ms, ${result.errors + result.timeouts + result.non2xx} errors`;
  } finally {
    child.kill();
  }
}

async function readRows(distDir: string, target: ReadTarget, reference: string): Promise<BenchRow[]> {
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
      const result = await readLoad(`${portal.baseUrl}${read.path}`, { cookie });
      const errors = result.errors + result.timeouts + result.non2xx;
      rows.push({
        figure: `${read.name} (${target.label}), ${READ_RATE_PER_SECOND} req/s for ${READ_DURATION_SECONDS} s (p50/p99, errors of ${result.requests.total})`,
        value: `${result.latency.p50} / ${result.latency.p99} ms, ${errors} errors`,
        reference,
        target: `p99 <= ${READ_P99_TARGET_MS} ms, 0 errors`,
        met: result.latency.p99 <= READ_P99_TARGET_MS && errors === 0 && result.requests.total >= READ_RATE_PER_SECOND * READ_DURATION_SECONDS * 0.95,
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
async function postgresReadRows(distDir: string, serverUrl: string, reference: string): Promise<BenchRow[]> {
  const name = `bench_${randomBytes(6).toString('hex')}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await adminQuery(serverUrl, `create database ${name}`);
  try {
    return await readRows(distDir, { label: 'PostgreSQL', env: { DATABASE_URL: url.toString() } }, reference);
  } finally {
    await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
  }
}

export async function gatewayLoadRows(distDir: string): Promise<BenchRow[]> {
  const reference = await bareServerReads();
  const rows = await readRows(distDir, { label: 'embedded PGlite', env: {} }, reference);
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) rows.push(...(await postgresReadRows(distDir, serverUrl, reference)));
  rows.push(...(await loginRows(distDir)));
  return rows;
}

/**
 * The sign-ins' reference: the gateway's own argon2id verification (gateway/security/password-hashing.ts) alone,
 * as many at a time as the load has clients, for as long.
 */
async function argon2VerifiesPerSecond(): Promise<string> {
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
  return `argon2id verifies alone, ${LOGIN_CONNECTIONS} at a time: ${(verified / ((performance.now() - started) / 1000)).toFixed(1)}/s`;
}

async function loginRows(distDir: string): Promise<BenchRow[]> {
  const reference = await argon2VerifiesPerSecond();
  const portal = await startBenchPortal({ DIST_DIR: distDir, TRUST_PROXY: 'true' });
  const rows: BenchRow[] = [];
  try {
    const user = demoUserWithoutPasscode();
    const { xsrf } = await signIn(portal.baseUrl, user);
    let caller = 0;
    const body = new URLSearchParams({
      username: user.email,
      password: user.password,
      grant_type: 'password',
      siteId: user.siteId,
      locale: 'en_us',
      init_login: 'true',
    }).toString();
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
      reference,
      target: 'none (printed)',
      met: loginErrors === 0 ? null : false,
    });
  } finally {
    await portal.stop();
  }
  return rows;
}
