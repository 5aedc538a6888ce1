import { spawn } from 'node:child_process';
import { chmod, cp, lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { migrate } from '../../gateway/db/migrate';
import { passcodePhoneOf } from '../../gateway/auth/passcode-delivery';
import { openPglite } from '../../gateway/db/open-pglite';
import { openPostgres } from '../../gateway/db/open-postgres';
import { FIXTURES_DIR } from '../../gateway/site-files/load-fixtures';
import { KEY_FILE } from '../../gateway/security/card-fingerprint';
import { hashPassword } from '../../gateway/security/password-hashing';
import { freePort } from '../support/free-port';
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

/** A start that ended before the gateway listened: its exit code and each pipe on its own. */
class EarlyExit extends Error {
  constructor(
    readonly code: number | null,
    readonly stdout: string,
    readonly stderr: string,
  ) {
    super(`the gateway exited with ${code} before listening:\n--- stdout ---\n${stdout}--- stderr ---\n${stderr}`);
  }
}

/**
 * `npm start` without the Vite build: the built gateway (the unit project's global setup) in development
 * mode on a free port (PORT=0), on the embedded database. Rejects with an EarlyExit when it ends first.
 */
function startGateway(env: Record<string, string> = {}): Promise<RunningGateway> {
  const { DATABASE_URL: _database, CARD_FINGERPRINT_KEY: _key, ...inherited } = process.env;
  const child = spawn(process.execPath, [inject('portalGateway').entry], {
    cwd: REPO_ROOT,
    env: {
      ...inherited,
      NODE_ENV: 'development',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DIST_DIR: join(dataDir, 'no-build'),
      GATEWAY_TEST_MODE: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Both pipes in arrival order for the tests that read the whole output; each on its own for refusals,
  // since which pipe is read first is up to the operating system.
  let output = '';
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // 'close' comes after the last chunk of both pipes, 'exit' may not.
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
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
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      onOutput(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      onOutput(chunk);
    });
    void closed.then((code) => reject(new EarlyExit(code, stdout, stderr)));
  });
}

/** The EarlyExit of a start that must fail. */
async function earlyExitOf(run: Promise<RunningGateway>): Promise<EarlyExit> {
  const outcome = await run.then(
    async (gateway) => {
      await gateway.stop('SIGTERM');
      return new Error(`the gateway started:\n${gateway.output()}`);
    },
    (error: unknown) => error,
  );
  if (outcome instanceof EarlyExit) return outcome;
  throw outcome;
}

/** Each JSON log line's string values, and any non-JSON line whole: numbers like `time` are not card numbers. */
function loggedTexts(output: string): string[] {
  const strings = (value: unknown): string[] =>
    typeof value === 'string'
      ? [value]
      : typeof value === 'object' && value !== null
        ? Object.entries(value).flatMap(([key, inner]) => [key, ...strings(inner)])
        : [];
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

async function countUsers(dir = dataDir): Promise<number> {
  const db = await openPglite(join(dir, 'db'));
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
  // ADR 0018: development mode says what it exposes.
  expect(first.output()).toMatch(/^DEVELOPMENT MODE \(NODE_ENV=development\)/m);
  for (const exposed of [
    '/api/dev-outbox/messages',
    '/test-idp/',
    'demo users',
    'keys generated under DATA_DIR/secrets',
    'pre-auth client secret',
    '/api/test-support/session',
    'any captcha token passes',
  ]) {
    expect(first.output()).toContain(exposed);
  }
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
      for (const [name, value] of Object.entries({
        username: 'emily.carter@example.com',
        password: 'Firstbank#2025',
        grant_type: 'password',
        siteId: 'firstbank',
        locale: 'en_us',
        init_login: 'true',
        ...extra,
      }))
        form.append(name, value);
      return remember(
        await fetch(`${gateway.baseUrl}/api/user-auth/login`, {
          method: 'POST',
          body: form,
          headers: { cookie: cookieHeader(), 'x-xsrf-token': cookies.get('XSRF-TOKEN') ?? '' },
        }),
      );
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
  // The code and the password never reach the process's logs.
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
  const { code, stdout, stderr } = await earlyExitOf(startGateway({ DATA_DIR: notAFolder }));
  expect(code).toBe(1);
  // Development mode's banner comes first on stderr; the refusal, one problem under its heading, ends it.
  expect(stderr).toMatch(
    /\nThe gateway's environment is not valid:\n {2}- DATA_DIR must be a folder of the gateway's own user that it can make private \(0700\), but [^\n]*a-file answered E[A-Z]+\n$/,
  );
  expect(stdout + stderr).not.toMatch(/\n\s+at /);
});

it('refuses a bad PORT with a clear message and exit code 1', async () => {
  const { code, stderr } = await earlyExitOf(startGateway({ PORT: 'eighty' }));
  expect(code).toBe(1);
  expect(stderr).toMatch(/PORT must be an integer from 0 to 65535/);
});

it.skipIf(POSTGRES_URL === undefined)(
  POSTGRES_URL === undefined
    ? 'PostgreSQL leg skipped: TEST_DATABASE_URL not set'
    : 'runs on PostgreSQL when DATABASE_URL is set, seeding once across restarts',
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

/** A deployment's own fixtures (FIXTURES_DIR): the bundled ones, with unionbank and rheinbank (SAML, ADR 0028) signing in at their own https identity providers. */
const productionFixtures = await mkdtemp(join(tmpdir(), 'gateway-prod-fixtures-'));
afterAll(() => rm(productionFixtures, { recursive: true, force: true }));
await cp(FIXTURES_DIR, productionFixtures, { recursive: true });
const unionbankFile = join(productionFixtures, 'sites', 'unionbank.json');
await writeFile(
  unionbankFile,
  (await readFile(unionbankFile, 'utf8')).replace('"issuer_url": "http://127.0.0.1/test-idp"', '"issuer_url": "https://login.unionbank.example"'),
);
const rheinbankFile = join(productionFixtures, 'sites', 'rheinbank.json');
await writeFile(
  rheinbankFile,
  (await readFile(rheinbankFile, 'utf8')).replace(
    '"saml_idp_metadata_url": "http://127.0.0.1/test-saml-idp/metadata"',
    '"saml_idp_metadata_url": "https://login.rheinbank.example/saml/metadata"',
  ),
);

/** The same, with unionbank a confidential client (ADR 0015): its secret or key must come from the environment. */
async function confidentialFixtures(clientAuth: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `gateway-${clientAuth}-fixtures-`));
  afterAll(() => rm(dir, { recursive: true, force: true }));
  await cp(productionFixtures, dir, { recursive: true });
  const file = join(dir, 'sites', 'unionbank.json');
  await writeFile(file, (await readFile(file, 'utf8')).replace('"client_id":', `"client_auth": "${clientAuth}",\n        "client_id":`));
  return dir;
}
const secretBasicFixtures = await confidentialFixtures('client_secret_basic');
const privateKeyJwtFixtures = await confidentialFixtures('private_key_jwt');

/** Values a refusal must never print. */
const SECRETS = {
  smtpPassword: 'smtp-password-never-printed',
  preauth: 'preauth-secret-never-printed',
  keys: ['1a'.repeat(32), '2b'.repeat(32), '3c'.repeat(32)],
  hcaptcha: 'hcaptcha-secret-never-printed',
};
/** ADR 0018: every development default replaced; an empty value unsets a variable (the gateway reads "" as unset). */
const PRODUCTION_ENV: Record<string, string> = {
  NODE_ENV: 'production',
  GATEWAY_TEST_MODE: 'false',
  SMTP_URL: `smtp://portal:${SECRETS.smtpPassword}@127.0.0.1:${await freePort()}`,
  PREAUTH_CLIENT_SECRET: SECRETS.preauth,
  PUBLIC_URL: 'https://rewards.example',
  TOKEN_SIGNING_KEY: SECRETS.keys[0]!,
  TOTP_ENCRYPTION_KEY: SECRETS.keys[1]!,
  CARD_FINGERPRINT_KEY: SECRETS.keys[2]!,
  // The bundled sites ask a captcha at registration (SPEC §7 `captcha_required`).
  HCAPTCHA_SECRET: SECRETS.hcaptcha,
  FIXTURES_DIR: productionFixtures,
};

/** Starts a gateway that must refuse: its exit code, heading and problem lines; DATA_DIR is never created. */
async function refusalOf(env: Record<string, string>): Promise<{ heading: string; problems: string[]; output: string }> {
  const untouched = join(dataDir, `never-created-${Math.random().toString(36).slice(2)}`);
  const { code, stdout, stderr } = await earlyExitOf(startGateway({ DATA_DIR: untouched, ...env }));
  expect(code).toBe(1);
  expect(stdout + stderr).not.toMatch(/\n\s+at /);
  for (const secret of [SECRETS.smtpPassword, SECRETS.preauth, ...SECRETS.keys, SECRETS.hcaptcha]) expect(stdout + stderr).not.toContain(secret);
  await expect(stat(untouched)).rejects.toThrow(/ENOENT/);
  const lines = stderr.split('\n').filter(Boolean);
  return { heading: lines[0] ?? '', problems: lines.filter((line) => line.startsWith('  - ')).map((line) => line.slice(4)), output: stderr };
}

describe('production mode (ADR 0018): the real process refuses to start while a development default is left', () => {
  it.each([
    ['SMTP_URL unset (mail would go to the outbox)', { SMTP_URL: '' }, /^SMTP_URL is not set: production mode sends e-mail through SMTP and serves no outbox/],
    ['PREAUTH_CLIENT_SECRET unset', { PREAUTH_CLIENT_SECRET: '' }, /^PREAUTH_CLIENT_SECRET is not set/],
    [
      'PREAUTH_CLIENT_SECRET the development secret',
      { PREAUTH_CLIENT_SECRET: 'dev-preauth-secret' },
      /^PREAUTH_CLIENT_SECRET is the published development secret/,
    ],
    ['PUBLIC_URL unset', { PUBLIC_URL: '' }, /^PUBLIC_URL is not set/],
    ['PUBLIC_URL not https', { PUBLIC_URL: 'http://rewards.example' }, /^PUBLIC_URL must start with https:\/\//],
    [
      'TOKEN_SIGNING_KEY unset (a generated key)',
      { TOKEN_SIGNING_KEY: '' },
      /^TOKEN_SIGNING_KEY is not set: production mode never generates keys under DATA_DIR/,
    ],
    ['TOTP_ENCRYPTION_KEY unset', { TOTP_ENCRYPTION_KEY: '' }, /^TOTP_ENCRYPTION_KEY is not set/],
    ['CARD_FINGERPRINT_KEY unset', { CARD_FINGERPRINT_KEY: '' }, /^CARD_FINGERPRINT_KEY is not set/],
    [
      'one key used twice',
      { CARD_FINGERPRINT_KEY: SECRETS.keys[0]! },
      /^TOKEN_SIGNING_KEY, TOTP_ENCRYPTION_KEY and CARD_FINGERPRINT_KEY must be three different keys$/,
    ],
    ['a key too short', { TOTP_ENCRYPTION_KEY: 'ab'.repeat(16) }, /^TOTP_ENCRYPTION_KEY must hold at least 32 bytes/],
    ['GATEWAY_TEST_MODE=true', { GATEWAY_TEST_MODE: 'true' }, /^GATEWAY_TEST_MODE=true adds test hooks/],
    [
      'TRUST_PROXY=true (the client would name its own address)',
      { TRUST_PROXY: 'true' },
      /^TRUST_PROXY=true takes the client address from X-Forwarded-For as the client wrote it, so no per-IP limit holds; set the number of proxies/,
    ],
    [
      'HCAPTCHA_SECRET unset while sites ask a captcha (any token would pass)',
      { HCAPTCHA_SECRET: '' },
      /^HCAPTCHA_SECRET is not set, so any captcha token passes, and .*firstbank.* require a captcha/,
    ],
    [
      'a client_secret_basic site without SSO_CLIENT_SECRET_<SITE>',
      { FIXTURES_DIR: secretBasicFixtures },
      /^site unionbank: site_auth_profile.client_auth is client_secret_basic but SSO_CLIENT_SECRET_UNIONBANK is not set/,
    ],
    [
      'a private_key_jwt site whose SSO_PRIVATE_KEY_<SITE> is no key',
      { FIXTURES_DIR: privateKeyJwtFixtures, SSO_PRIVATE_KEY_UNIONBANK: SECRETS.preauth },
      /^SSO_PRIVATE_KEY_UNIONBANK must be an RSA \(2048 bits or more\) or EC P-256 private key/,
    ],
    ['NODE_ENV unset is production too', { NODE_ENV: '', SMTP_URL: '' }, /^SMTP_URL is not set/],
    ['NODE_ENV it cannot read', { NODE_ENV: 'prod' }, /^NODE_ENV must be "production" or "development"/],
  ])(
    '%s: one line, exit code 1, no stack trace, no secret, nothing written',
    async (_case, change, expected) => {
      const { problems } = await refusalOf({ ...PRODUCTION_ENV, ...change });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(expected);
    },
    30_000,
  );

  it('the bundled fixtures: unionbank and rheinbank sign in at the test identity providers, each one line naming its setting', async () => {
    const { problems } = await refusalOf({ ...PRODUCTION_ENV, FIXTURES_DIR: '' });
    expect(problems).toEqual([
      expect.stringMatching(/^site unionbank: site_auth_profile.issuer_url is the gateway's own test identity provider/),
      expect.stringMatching(/^site rheinbank: site_auth_profile.saml_idp_metadata_url is the gateway's own test SAML identity provider/),
    ]);
  }, 30_000);

  it('lists every problem at once, under a heading that names production mode', async () => {
    const { heading, problems } = await refusalOf({
      NODE_ENV: 'production',
      SMTP_URL: 'smtps://portal:' + SECRETS.smtpPassword + '@mail.example',
      PREAUTH_CLIENT_SECRET: 'dev-preauth-secret',
    });
    expect(heading).toMatch(/^The gateway refuses to start in production mode/);
    expect(problems.map((problem) => problem.split(/ is | must | adds |: /)[0])).toEqual([
      'PREAUTH_CLIENT_SECRET',
      'PUBLIC_URL',
      'TOKEN_SIGNING_KEY',
      'TOTP_ENCRYPTION_KEY',
      'CARD_FINGERPRINT_KEY',
      'GATEWAY_TEST_MODE=true',
      'HCAPTCHA_SECRET',
      'site unionbank',
      'site rheinbank',
    ]);
  }, 30_000);

  it('development mode refuses a non-loopback HOST with one line pointing to production mode', async () => {
    const { problems } = await refusalOf({ HOST: '0.0.0.0' });
    expect(problems).toEqual([
      'HOST=0.0.0.0 is not a loopback address: development mode listens on this machine only (localhost, 127.0.0.1 or ::1); to serve other machines run production mode (NODE_ENV=production, README "Production")',
    ]);
  }, 30_000);
});

describe('production mode (ADR 0018): a correctly configured start', () => {
  it('starts and serves /api/health, with no outbox reader, no test identity provider, no test hooks, Secure cookies, no demo user and no generated key', async () => {
    const productionDir = await mkdtemp(join(tmpdir(), 'gateway-prod-'));
    try {
      const gateway = await startGateway({ ...PRODUCTION_ENV, DATA_DIR: productionDir });
      try {
        const health = await fetch(`${gateway.baseUrl}/api/health`);
        expect(health.status).toBe(200);
        expect(await health.json()).toEqual({ status: 'ok', database: 'pglite' });
        expect(health.headers.getSetCookie()).toEqual([expect.stringMatching(/^XSRF-TOKEN=[^;]+; Path=\/; SameSite=Lax; Secure$/)]);
        for (const base of ['/api', '/gateway/api'])
          expect((await fetch(`${gateway.baseUrl}${base}/dev-outbox/messages?to=emily.carter%40example.com`)).status).toBe(404);
        for (const path of [
          '/.well-known/openid-configuration',
          '/jwks',
          '/authorize?response_type=code&client_id=unionbank-rewards-portal',
          `/interactions/${'a'.repeat(43)}`,
        ]) {
          expect((await fetch(`${gateway.baseUrl}/test-idp${path}`, { redirect: 'manual' })).status, path).toBe(404);
        }
        expect(
          (
            await fetch(`${gateway.baseUrl}/api/test-support/session`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: '{"email":"emily.carter@example.com","siteId":"firstbank"}',
            })
          ).status,
        ).toBe(404);
      } finally {
        expect(await gateway.stop('SIGTERM')).toBe(0);
      }
      expect(gateway.output()).not.toContain('DEVELOPMENT MODE');
      expect(gateway.output()).toContain('"mode":"production"');
      expect(await countUsers(productionDir)).toBe(0);
      await expect(stat(join(productionDir, 'secrets'))).rejects.toThrow(/ENOENT/);
    } finally {
      await rm(productionDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('signs a card holder in with every cookie Secure, and writes a texted passcode to the 0600 outbox it never serves', async () => {
    const productionDir = await mkdtemp(join(tmpdir(), 'gateway-prod-'));
    try {
      // Production seeds nobody: the accounts are put in the database as an operator's migration would.
      const db = await openPglite(join(productionDir, 'db'));
      await migrate(db);
      const passwordHash = await hashPassword('Quiet-Harbour-Lantern-93');
      for (const [email, siteId, attributes] of [
        ['olivia.ng@example.com', 'eurobank', {}],
        ['mateo.rojas@example.com', 'bancosol', { phone: '+59170012345' }],
      ] as const) {
        const { rows } = await db.query<{ id: string }>(
          `insert into users (email, password_hash, first_name, last_name, dob, title, status, roles)
           values ($1, $2, 'Test', 'Holder', '1988-04-12', 'Ms', 'ACTIVE', $3) returning id`,
          [email, passwordHash, ['ROLE_CARDHOLDER']],
        );
        await db.query('insert into user_sites (user_id, site_id, attributes, passcode_phone) values ($1, $2, $3, $4)', [
          rows[0]!.id,
          siteId,
          JSON.stringify(attributes),
          passcodePhoneOf(attributes),
        ]);
      }
      await db.close();

      const gateway = await startGateway({ ...PRODUCTION_ENV, DATA_DIR: productionDir });
      try {
        const setCookies: string[] = [];
        const cookies = new Map<string, string>();
        const remember = (response: Response) => {
          for (const line of response.headers.getSetCookie()) {
            setCookies.push(line);
            const pair = line.split(';')[0] ?? '';
            cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
          }
          return response;
        };
        const login = async (username: string, siteId: string) => {
          const form = new FormData();
          for (const [name, value] of Object.entries({
            username,
            password: 'Quiet-Harbour-Lantern-93',
            grant_type: 'password',
            siteId,
            locale: 'en_us',
            init_login: 'true',
          }))
            form.append(name, value);
          const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
          return remember(
            await fetch(`${gateway.baseUrl}/api/user-auth/login`, {
              method: 'POST',
              body: form,
              headers: { cookie, 'x-xsrf-token': cookies.get('XSRF-TOKEN') ?? '' },
            }),
          );
        };
        remember(await fetch(`${gateway.baseUrl}/api/site-config-service/config/site/eurobank`));
        const signedIn = await login('olivia.ng@example.com', 'eurobank');
        expect(signedIn.status).toBe(200);
        expect(cookies.get('gmap_authenticated')).toBe('true');
        expect(setCookies.map((line) => line.slice(0, line.indexOf('=')))).toEqual(
          expect.arrayContaining(['XSRF-TOKEN', 'SESSION', 'gmap_authenticated', 'gmap_user_type']),
        );
        for (const line of setCookies) expect(line).toMatch(/; Secure(;|$)/);

        // There is no SMS provider: the code goes to the outbox folder, the hand-off to an SMS gateway.
        const texted = await login('mateo.rojas@example.com', 'bancosol');
        expect(texted.status).toBe(401);
        expect((await texted.json()).error).toBe('OTP_REQUIRED_PHONE');
        const outboxFiles = (await readdir(join(productionDir, 'outbox'))).filter((name) => name.endsWith('.json'));
        expect(outboxFiles).toHaveLength(1);
        expect((await stat(join(productionDir, 'outbox', outboxFiles[0]!))).mode & 0o777).toBe(0o600);
        expect((await fetch(`${gateway.baseUrl}/api/dev-outbox/messages?to=%2B59170012345`)).status).toBe(404);
      } finally {
        expect(await gateway.stop('SIGTERM')).toBe(0);
      }
      for (const text of loggedTexts(gateway.output())) expect(text).not.toContain('Quiet-Harbour-Lantern-93');
    } finally {
      await rm(productionDir, { recursive: true, force: true });
    }
  }, 90_000);
});
