import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../../gateway/cli/gateway-bundle';

/**
 * README "Admin command": the build puts the command beside the gateway as `build/gateway/admin.js`
 * (gateway-bundle.ts), so a production install, which has no tsx, runs it with node alone (`npm run admin:prod`).
 */
const adminBundle = join(dirname(inject('portalGateway').entry), 'admin.js');
const packageFile = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

interface Finished {
  code: number | null;
  output: string;
}

/** `node admin.js …` with node alone on PATH (no node_modules/.bin, so no tsx), in a folder of its own. */
function runAdmin(args: string[], env: Record<string, string>, stdin = ''): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [adminBundle, ...args], {
      cwd: tmpdir(),
      env: { PATH: dirname(process.execPath), HOME: tmpdir(), ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
    child.stdin.end(stdin);
  });
}

it('the admin bundle imports only Node modules and packages declared in dependencies', async () => {
  const bundle = await readFile(adminBundle, 'utf8');
  const specifiers = [...bundle.matchAll(/^(?:import|export)\b[^;'"]*?(?:\bfrom\s*)?"([^"]+)";$/gm)].map((match) => match[1]!);
  expect(specifiers).toContain('pg');
  const packages = [
    ...new Set(
      specifiers
        .filter((specifier) => !isBuiltin(specifier))
        .map((specifier) =>
          specifier
            .split('/')
            .slice(0, specifier.startsWith('@') ? 2 : 1)
            .join('/'),
        ),
    ),
  ];
  expect(packages.filter((name) => !(name in packageFile.dependencies))).toEqual([]);
});

it('runs with node alone: usage is exit 64, a data dir without a database exit 69 with what to set', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'admin-bundle-'));
  try {
    const usage = await runAdmin([], { NODE_ENV: 'production', DATA_DIR: dataDir });
    expect(usage.code).toBe(64);
    expect(usage.output).toContain('Usage: npm run admin -- <task>');
    const missing = await runAdmin(['agent', 'list'], { NODE_ENV: 'production', DATA_DIR: dataDir });
    expect(missing.code).toBe(69);
    expect(missing.output).toContain(`There is no embedded database at ${dataDir}/db`);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

describe.skipIf(TEST_DATABASE_URL === undefined)('on PostgreSQL, in production mode', () => {
  const name = `admin_bundle_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  afterAll(async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('creates an agent (migrating the database first) and lists it', async () => {
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(TEST_DATABASE_URL ?? '');
    url.pathname = `/${name}`;
    const env = { NODE_ENV: 'production', DATABASE_URL: url.toString() };
    const password = `Desk!${randomBytes(6).toString('hex')}Ab9`;
    const created = await runAdmin(['agent', 'create', 'ops.agent@example.com', '--site', 'firstbank'], env, `${password}\n`);
    expect(created, created.output).toMatchObject({ code: 0 });
    expect(created.output).not.toContain(password);
    const listed = await runAdmin(['agent', 'list'], env);
    expect(listed).toEqual({ code: 0, output: 'ops.agent@example.com\tACTIVE\tfirstbank\n' });
  });
});
