import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../gateway/db/migrate';
import { openPglite } from '../../../gateway/db/open-pglite';
import { holderFileOf } from '../../../gateway/db/pglite-holder';
import { ringKeyOf, type KeyRow } from '../../../gateway/security/key-ring';
import { keyBytes } from '../../../gateway/security/server-keys';

/**
 * README "Admin command": `npm run admin` as an operator runs it, a child process on a PGlite data folder: an
 * agent created (password on stdin, never printed) and listed; a key rotated and the keys listed (ADR 0026);
 * the refusals (a duplicate, a wrong task, a held database) with their exit codes. The tasks themselves, on both
 * databases, are in tests/gateway/admin/admin-tasks.test.ts.
 */
const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const AGENT = 'new.agent@example.com';
const PASSWORD = 'Agent#Password-2026';

let dataDir: string;

function admin(args: string[], stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { DATABASE_URL: _database, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'gateway/cli/admin.ts', ...args], {
    cwd: REPO_ROOT,
    env: { ...inherited, DATA_DIR: dataDir, ADMIN_OPERATOR: 'ops.tester' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

async function withDatabase<T>(work: (db: Awaited<ReturnType<typeof openPglite>>) => Promise<T>): Promise<T> {
  const db = await openPglite(join(dataDir, 'db'));
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

describe('npm run admin on the embedded database', () => {
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'admin-command-'));
    await withDatabase((db) => migrate(db));
  }, 120_000);
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it(
    'creates an agent with the password from stdin and never prints it, lists it, refuses a duplicate (65) and an unknown task (64)',
    { timeout: 120_000 },
    async () => {
      const created = await admin(['agent', 'create', AGENT, '--site', 'firstbank', '--site', 'eurobank'], `${PASSWORD}\n`);
      expect(created.stderr).toBe('');
      expect(created.code).toBe(0);
      expect(created.stdout).toMatch(/^agent new\.agent@example\.com created \([0-9a-f-]{36}\) on firstbank, eurobank\n$/);
      const duplicate = await admin(['agent', 'create', AGENT.toUpperCase(), '--site', 'firstbank'], `${PASSWORD}\n`);
      expect(duplicate.code).toBe(65);
      expect(duplicate.stderr).toBe(`admin: An account with the address ${AGENT} already exists; nothing was changed.\n`);
      const usage = await admin(['agent', 'promote', AGENT]);
      expect(usage.code).toBe(64);
      expect(usage.stderr).toContain('Usage: npm run admin -- <task>');
      for (const output of [created, duplicate]) expect(output.stdout + output.stderr).not.toContain(PASSWORD);
      await withDatabase(async (db) => {
        const user = (
          await db.query<{ password_hash: string; roles: string[]; status: string }>('select password_hash, roles, status from users where email = $1', [AGENT])
        ).rows[0];
        expect(user).toMatchObject({ roles: ['ROLE_CONCIERGE'], status: 'ACTIVE' });
        expect(user?.password_hash).toMatch(/^\$argon2id\$/);
        const audit = await db.query<{ operator: string; action: string }>('select operator, action from operator_audit order by id');
        expect(audit.rows).toEqual([{ operator: 'ops.tester', action: 'agent.create' }]);
      });
    },
  );

  it(
    'rotates a key and lists the keys (ids and dates, never a secret), audited; refuses an unknown key (64) and a bad grace (64)',
    { timeout: 120_000 },
    async () => {
      const rotated = await admin(['keys', 'rotate', 'token-signing', '--grace', '30d']);
      expect(rotated.stderr).toBe('');
      expect(rotated.code).toBe(0);
      expect(rotated.stdout).toMatch(
        /^token-signing key k2 made; it signs from \S+Z \(every gateway reads the keys again within 30 s\); env verifies until \S+Z\n$/,
      );
      const listed = await admin(['keys', 'list']);
      expect(listed.code).toBe(0);
      expect(
        listed.stdout
          .split('\n')
          .filter(Boolean)
          .map((line) => line.split('\t').slice(0, 3)),
      ).toEqual([
        ['token-signing', 'env', 'current'],
        ['token-signing', 'k2', 'next'],
        ['totp-encryption', 'env', 'current'],
        ['card-fingerprint', 'env', 'current'],
      ]);
      const unknown = await admin(['keys', 'rotate', 'signing', '--grace', '1d']);
      expect(unknown.code).toBe(64);
      expect(unknown.stderr).toBe('admin: Unknown key "signing": the keys are token-signing, totp-encryption, card-fingerprint.\n');
      const badGrace = await admin(['keys', 'rotate', 'totp-encryption', '--grace', 'forever']);
      expect(badGrace.code).toBe(64);
      expect(badGrace.stderr).toMatch(/^admin: --grace "forever" is not a grace/);
      // The new key as stored opens under the development key file the command and the gateway share; no output holds it.
      const root = keyBytes((await readFile(join(dataDir, 'secrets', 'token-signing.key'), 'utf8')).trim());
      await withDatabase(async (db) => {
        const row = (await db.query<KeyRow>("select * from server_keys where name = 'token-signing' and id = 'k2'")).rows[0]!;
        const secret = ringKeyOf(row, root).secret;
        for (const output of [rotated, listed, unknown, badGrace])
          for (const text of [secret.toString('hex'), secret.toString('base64'), row.sealed_secret!]) expect(output.stdout + output.stderr).not.toContain(text);
        const audit = await db.query<{ action: string; key_name: string; key_id: string }>(
          "select action, key_name, key_id from operator_audit where action = 'key.rotate'",
        );
        expect(audit.rows).toEqual([{ action: 'key.rotate', key_name: 'token-signing', key_id: 'k2' }]);
      });
    },
  );

  it('refuses politely, exit 69, while a running process holds the embedded database, and says what to do', { timeout: 120_000 }, async () => {
    await writeFile(holderFileOf(join(dataDir, 'db')), JSON.stringify({ pid: process.pid, program: 'gateway', since: '2026-11-28T21:00:00.000Z' }));
    const held = await admin(['agent', 'list']);
    expect(held.code).toBe(69);
    expect(held.stderr).toContain(`held by a running gateway (process ${String(process.pid)}`);
    expect(held.stderr).toContain('Stop the gateway (SIGTERM');
    expect(held.stderr).toContain('DATABASE_URL');
    const rotation = await admin(['keys', 'rotate', 'card-fingerprint']);
    expect(rotation.code).toBe(69);
    expect(rotation.stderr).toContain('Stop the gateway (SIGTERM');
    // A holder that no longer runs (a killed gateway) is taken over.
    await writeFile(holderFileOf(join(dataDir, 'db')), JSON.stringify({ pid: 2 ** 22 + 17, program: 'gateway', since: '2026-11-28T21:00:00.000Z' }));
    const list = await admin(['agent', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toBe(`${AGENT}\tACTIVE\teurobank,firstbank\n`);
  });
});
