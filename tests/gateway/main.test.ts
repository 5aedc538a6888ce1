import { spawn } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { openPglite } from '../../gateway/db/open-pglite';
import { openPostgres } from '../../gateway/db/open-postgres';
import { FIXTURES_DIR } from '../../gateway/fixtures/load-fixtures';
import { KEY_FILE } from '../../gateway/security/card-fingerprint';
import { POSTGRES_URL } from './support/database-legs';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dataDir = await mkdtemp(join(tmpdir(), 'gateway-main-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const demoUsers = JSON.parse(await readFile(join(FIXTURES_DIR, 'demo-users.json'), 'utf8')) as { password: string }[];

interface RunningGateway {
  baseUrl: string;
  output: () => string;
  /** Sends the signal and resolves with the exit code. */
  stop: (signal: NodeJS.Signals) => Promise<number | null>;
}

/** `npm start` without the Vite build: the gateway process on a free port (PORT=0), on the embedded database. */
function startGateway(env: Record<string, string> = {}): Promise<RunningGateway> {
  const { DATABASE_URL: _database, CARD_FINGERPRINT_KEY: _key, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'gateway/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...inherited, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DIST_DIR: join(dataDir, 'no-build'), GATEWAY_TEST_MODE: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = (signal: NodeJS.Signals) => {
    if (child.exitCode === null) child.kill(signal);
    return exited;
  };
  return new Promise((resolve, reject) => {
    const onOutput = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /gateway listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url) resolve({ baseUrl: url, output: () => output, stop });
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    void exited.then((code) => reject(new Error(`the gateway exited with ${code} before listening:\n${output}`)));
  });
}

/** Each JSON log line's string values, and any non-JSON line whole: numbers like `time` are not card numbers. */
function loggedTexts(output: string): string[] {
  const strings = (value: unknown): string[] =>
    typeof value === 'string' ? [value] : typeof value === 'object' && value !== null ? Object.entries(value).flatMap(([key, inner]) => [key, ...strings(inner)]) : [];
  return output
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      try {
        return strings(JSON.parse(line));
      } catch {
        return [line];
      }
    });
}

async function countUsers(): Promise<number> {
  const db = await openPglite(join(dataDir, 'db'));
  const { rows } = await db.query<{ n: number }>('select count(*)::int as n from users');
  await db.close();
  return rows[0]?.n ?? -1;
}

it('starts, serves, stops cleanly on SIGTERM, and keeps its data across a restart', async () => {
  const first = await startGateway();
  const health = await fetch(`${first.baseUrl}/api/health`);
  expect(health.status).toBe(200);
  expect(await health.json()).toEqual({ status: 'ok', database: 'pglite' });
  const site = await fetch(`${first.baseUrl}/gateway/api/site-config-service/config/site/firstbank`);
  expect(await site.text()).toBe(await readFile(join(FIXTURES_DIR, 'sites', 'firstbank.json'), 'utf8'));
  expect(site.headers.get('x-cid')).toBeTruthy();
  expect(await first.stop('SIGTERM')).toBe(0);
  expect(first.output()).toContain('"msg":"stopped"');
  expect(first.output()).toContain(`"seededUsers":${demoUsers.length}`);
  expect((await stat(join(dataDir, KEY_FILE))).mode & 0o777).toBe(0o600);
  expect(await countUsers()).toBe(demoUsers.length);

  const second = await startGateway();
  expect((await fetch(`${second.baseUrl}/api/health`)).status).toBe(200);
  expect(await second.stop('SIGINT')).toBe(0);
  expect(second.output()).toContain('"migrationsApplied":[],"seededUsers":0');
  expect(await countUsers()).toBe(demoUsers.length);

  // DESIGN "Contracts": nothing secret reaches the logs, from start to shutdown.
  const texts = loggedTexts(first.output() + second.output());
  for (const text of texts) {
    expect(text).not.toMatch(/\d(?:[ -]?\d){15}/);
    for (const { password } of demoUsers) expect(text).not.toContain(password);
  }
}, 90_000);

it('signs a demo user in end to end (ADR 0008): XSRF cookie, multipart login, passcode from the DATA_DIR outbox, key files 0600', async () => {
  const gateway = await startGateway();
  try {
    const cookies = new Map<string, string>();
    const remember = (response: Response) => {
      for (const line of response.headers.getSetCookie()) {
        const pair = line.split(';')[0] ?? '';
        cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
      }
      return response;
    };
    const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    remember(await fetch(`${gateway.baseUrl}/api/site-config-service/config/site/firstbank`));
    const login = async (extra: Record<string, string>) => {
      const form = new FormData();
      for (const [name, value] of Object.entries({ username: 'emily.carter@example.com', password: 'Firstbank#2025', grant_type: 'password', siteId: 'firstbank', locale: 'en_us', init_login: 'true', ...extra })) form.append(name, value);
      return remember(await fetch(`${gateway.baseUrl}/api/user-auth/login`, { method: 'POST', body: form, headers: { cookie: cookieHeader(), 'x-xsrf-token': cookies.get('XSRF-TOKEN') ?? '' } }));
    };
    const first = await login({});
    expect(first.status).toBe(401);
    expect((await first.json()).error).toBe('OTP_REQUIRED_EMAIL');
    const outbox = (await (await fetch(`${gateway.baseUrl}/api/dev-outbox/messages?to=emily.carter%40example.com`)).json()) as { messages: { text: string }[] };
    const code = /\b(\d{6})\b/.exec(outbox.messages[0]?.text ?? '')?.[1] ?? '';
    const second = await login({ otp: code, otp_type: 'email' });
    expect(second.status).toBe(200);
    expect(cookies.get('gmap_authenticated')).toBe('true');
    for (const file of ['token-signing.key', 'totp-encryption.key']) expect((await stat(join(dataDir, 'secrets', file))).mode & 0o777).toBe(0o600);
  } finally {
    expect(await gateway.stop('SIGTERM')).toBe(0);
  }
  // Issue 5 "Done when": the code and the password never reach the process's logs.
  for (const text of loggedTexts(gateway.output())) expect(text).not.toContain('Firstbank#2025');
}, 60_000);

/** Path (under `root`) and permission bits of every folder and file below `root`, symbolic links left out. */
async function modesUnder(root: string): Promise<Array<{ path: string; kind: 'folder' | 'file'; mode: number }>> {
  const found: Array<{ path: string; kind: 'folder' | 'file'; mode: number }> = [];
  const walk = async (path: string): Promise<void> => {
    const info = await lstat(path);
    if (info.isSymbolicLink()) return;
    found.push({ path: path.slice(root.length) || '/', kind: info.isDirectory() ? 'folder' : 'file', mode: info.mode & 0o777 });
    if (info.isDirectory()) for (const name of await readdir(path)) await walk(join(path, name));
  };
  await walk(root);
  return found;
}

it('keeps DATA_DIR private: the folder 0700, every database, key and outbox file 0600, while running and after a stop', async () => {
  const privateDir = await mkdtemp(join(tmpdir(), 'gateway-private-'));
  try {
    // A DATA_DIR as an earlier version left it: open folder, open outbox message, and a file of the operator's own.
    await chmod(privateDir, 0o755);
    await mkdir(join(privateDir, 'outbox'), { mode: 0o755 });
    await writeFile(join(privateDir, 'outbox', '1-old.json'), '{}\n', { mode: 0o644 });
    await chmod(join(privateDir, 'outbox', '1-old.json'), 0o644);
    await writeFile(join(privateDir, 'operator-notes.txt'), 'mine\n');
    await chmod(join(privateDir, 'operator-notes.txt'), 0o644);

    const expectPrivate = async () => {
      expect((await stat(privateDir)).mode & 0o777).toBe(0o700);
      const entries = (await Promise.all(['db', 'secrets', 'outbox'].map((folder) => modesUnder(join(privateDir, folder))))).flat();
      expect(entries.filter(({ kind }) => kind === 'file').length).toBeGreaterThan(100);
      expect(entries.filter(({ kind, mode }) => mode !== (kind === 'folder' ? 0o700 : 0o600))).toEqual([]);
      expect((await stat(join(privateDir, 'operator-notes.txt'))).mode & 0o777).toBe(0o644);
    };
    const gateway = await startGateway({ DATA_DIR: privateDir });
    try {
      await expectPrivate();
    } finally {
      expect(await gateway.stop('SIGTERM')).toBe(0);
    }
    await expectPrivate();
  } finally {
    await rm(privateDir, { recursive: true, force: true });
  }
}, 90_000);

it('refuses a DATA_DIR it cannot make private with one line and exit code 1, no stack trace', async () => {
  const notAFolder = join(dataDir, 'a-file');
  await writeFile(notAFolder, 'not a folder\n');
  const run = startGateway({ DATA_DIR: notAFolder });
  await expect(run).rejects.toThrow(/exited with 1 before listening:\n.*DATA_DIR must be a folder of the gateway's own user that it can make private \(0700\), but .*a-file answered E[A-Z]+\n$/s);
  await expect(run).rejects.not.toThrow(/\n\s+at /);
});

it('refuses a bad PORT with a clear message and exit code 1', async () => {
  const run = startGateway({ PORT: 'eighty' });
  await expect(run).rejects.toThrow(/exited with 1 before listening:\n.*PORT must be an integer from 0 to 65535/s);
});

it.skipIf(POSTGRES_URL === undefined)(
  POSTGRES_URL === undefined ? 'PostgreSQL leg skipped: TEST_DATABASE_URL not set' : 'runs on PostgreSQL when DATABASE_URL is set, seeding once across restarts',
  async () => {
    const schema = `gateway_main_${Date.now().toString(36)}`;
    const admin = await openPostgres({ connectionString: POSTGRES_URL ?? '', schema });
    // The gateway works in whatever schema its URL selects; this one is fresh and dropped below.
    const url = new URL(POSTGRES_URL ?? '');
    url.searchParams.set('options', `-c search_path=${schema}`);
    const env = { DATABASE_URL: url.toString(), CARD_FINGERPRINT_KEY: 'cd'.repeat(32) };
    try {
      for (const expectedSeeded of [demoUsers.length, 0]) {
        const gateway = await startGateway(env);
        expect(await (await fetch(`${gateway.baseUrl}/api/health`)).json()).toEqual({ status: 'ok', database: 'postgres' });
        expect(await gateway.stop('SIGTERM')).toBe(0);
        expect(gateway.output()).toContain(`"seededUsers":${expectedSeeded}`);
      }
      expect((await admin.query('select count(*)::int as n from users')).rows).toEqual([{ n: demoUsers.length }]);
    } finally {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.close();
    }
  },
  60_000,
);
