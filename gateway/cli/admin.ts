/**
 * `npm run admin -- <task>`: the operators' command (docs/decisions/0026-metrics-and-admin-command.md, README
 * "Admin command"), after Keycloak's kcadm.sh: one task per run, against DATABASE_URL or, when unset, the
 * embedded database under DATA_DIR/db, which it refuses to open while a gateway holds it. Every change is one
 * transaction with its audit row; a refusal prints one line on stderr and exits non-zero (sysexits: 64 usage,
 * 65 refused input, 69 database unavailable). Passwords are read from stdin, never from the command line (it
 * would sit in the shell history and the process list), and never printed.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import {
  AdminRefusal,
  checkedKeyName,
  createAgent,
  disableAgent,
  endSessions,
  EXIT,
  grantSite,
  listAgents,
  listJobs,
  listKeys,
  parseGrace,
  retryJob,
  revokeSite,
  rotateKey,
  type AdminContext,
} from '../admin/admin-tasks';
import { readSettings, type GatewayConfig } from '../config';
import type { Database } from '../db/database';
import { migrate } from '../db/migrate';
import { openPglite } from '../db/open-pglite';
import { openPostgres } from '../db/open-postgres';
import { holdPgliteFolder, PgliteHeldError } from '../db/pglite-holder';
import { loadFixtures } from '../site-files/load-fixtures';
import { KEY_RING_REFRESH_MS, loadRootKey, ROOT_KEY_VARIABLES } from '../security/key-ring';
import { makeDataFilesPrivate, restrictNewFiles } from '../security/private-data-dir';

const USAGE = `Usage: npm run admin -- <task>

  agent create <email> --site <siteId> [--site <siteId>…] [--first-name <name>] [--last-name <name>]
                                   a support agent; the password is read from stdin (typed without echo on a terminal)
  agent disable <email>            withdraw every site and end every session
  agent grant <email> <siteId>     let the agent work on a site
  agent revoke <email> <siteId>    withdraw a site; the agent's sessions there end
  agent list                       every agent, status and sites
  jobs list                        dropped account jobs (id, kind, attempts, reason, when)
  jobs retry <jobId>               run a dropped job again
  sessions end <email>             end every session, refresh token and trusted device of an account
  keys rotate <name> --grace <0|90m|12h|30d>
                                   a new token-signing or totp-encryption key; the one it replaces verifies for the grace
  keys rotate card-fingerprint     a new card key; the earlier ones keep matching the cards they fingerprinted
  keys list                        every server key: id, state, created, signs from, retires (never a secret)

Database: DATABASE_URL, or the embedded one under DATA_DIR/db (not while a gateway runs on it).
Exit codes: 0 done, 64 usage (a wrong task, key name or --grace), 65 refused (unknown site or account, bad address,
duplicate, a rotation still pending), 69 database unavailable, 78 a key variable missing or not the ring's.`;

async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      site: { type: 'string', multiple: true },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      grace: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const [group, task, ...rest] = positionals;
  const run = `${group ?? ''} ${task ?? ''}`.trim();
  const arity: Readonly<Record<string, number>> = {
    'agent create': 1,
    'agent disable': 1,
    'agent grant': 2,
    'agent revoke': 2,
    'agent list': 0,
    'jobs list': 0,
    'jobs retry': 1,
    'sessions end': 1,
    'keys rotate': 1,
    'keys list': 0,
  };
  if (values.help === true || group === undefined || group === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return group === undefined && values.help !== true ? EXIT.usage : EXIT.ok;
  }
  if (arity[run] === undefined || rest.length !== arity[run]) throw new AdminRefusal(`Unknown task or wrong arguments: ${run}\n\n${USAGE}`, EXIT.usage);

  restrictNewFiles();
  const { config, problems } = readSettings(process.env);
  if (problems.length > 0) throw new AdminRefusal(`The environment is not valid:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`, EXIT.usage);
  const fixtures = await loadFixtures(config.fixturesDir);
  // Asked before the database is opened, so nobody waits on a held database to be told the password was too short.
  const password = run === 'agent create' ? await readPassword() : '';
  // Likewise a wrong key name or grace, and the key the new one is sealed under (README "Rotating a key").
  if (run === 'keys rotate' && values.grace !== undefined) parseGrace(values.grace);
  const root = run === 'keys rotate' ? await rootKeyOf(config, rest[0] ?? '') : undefined;

  let release: (() => Promise<void>) | undefined;
  let db: Database;
  if (config.databaseUrl) {
    db = await openPostgres({ connectionString: config.databaseUrl });
  } else {
    if (!existsSync(config.embeddedDbDir))
      throw new AdminRefusal(`There is no embedded database at ${config.embeddedDbDir}: set DATA_DIR (or DATABASE_URL) to the gateway's.`, EXIT.unavailable);
    try {
      release = await holdPgliteFolder(config.embeddedDbDir, 'admin');
    } catch (error) {
      if (!(error instanceof PgliteHeldError)) throw error;
      throw new AdminRefusal(
        `${error.message}. The embedded database (PGlite, ${config.embeddedDbDir}) can be opened by one process at a time, so this ` +
          `command cannot change it while the gateway runs. Stop the gateway (SIGTERM: it drains within 10 s), run this command, ` +
          `and start the gateway again; or run the gateway on PostgreSQL (DATABASE_URL), where this command works beside it.`,
        EXIT.unavailable,
      );
    }
    db = await openPglite(config.embeddedDbDir);
  }
  try {
    // The tables a task needs (dropped jobs, the operators' audit) as the gateway of this version has them.
    await migrate(db);
    const context: AdminContext = {
      db,
      sites: new Set(fixtures.sites.keys()),
      operator: operatorName(),
      correlationId: `admin-${randomUUID()}`,
      now: new Date(),
    };
    const [first = '', second = ''] = rest;
    const print = (line: string) => process.stdout.write(`${line}\n`);
    switch (run) {
      case 'agent create': {
        const created = await createAgent(context, {
          email: first,
          sites: values.site ?? [],
          password,
          ...(values['first-name'] === undefined ? {} : { firstName: values['first-name'] }),
          ...(values['last-name'] === undefined ? {} : { lastName: values['last-name'] }),
        });
        print(`agent ${first.trim().toLowerCase()} created (${created.userId}) on ${(values.site ?? []).join(', ')}`);
        break;
      }
      case 'agent disable': {
        const disabled = await disableAgent(context, first);
        print(
          `agent ${first.trim().toLowerCase()} disabled: ${String(disabled.sitesWithdrawn)} site(s) withdrawn, ${String(disabled.sessionsEnded)} session(s) ended`,
        );
        break;
      }
      case 'agent grant':
        print((await grantSite(context, first, second)).granted ? `${second} granted to ${first}` : `${first} already had ${second}; nothing changed`);
        break;
      case 'agent revoke':
        print((await revokeSite(context, first, second)).revoked ? `${second} withdrawn from ${first}` : `${first} did not have ${second}; nothing changed`);
        break;
      case 'agent list':
        for (const agent of await listAgents(context)) print(`${agent.email}\t${agent.status}\t${agent.sites.join(',') || '-'}`);
        break;
      case 'jobs list': {
        const jobs = await listJobs(context);
        if (jobs.length === 0) print('no dropped jobs');
        for (const job of jobs)
          print(
            `${job.id}\t${job.kind}\t${String(job.attempts)} attempts\t${job.reason}\tdropped ${job.droppedAt.toISOString()}\tcreated ${job.createdAt.toISOString()}`,
          );
        break;
      }
      case 'jobs retry':
        print(`job ${first} (${(await retryJob(context, first)).kind}) is due again; a running gateway takes it within 5 s`);
        break;
      case 'keys rotate': {
        if (root === undefined) throw new Error('the key to seal under was not read');
        const rotated = await rotateKey(context, root, first, values.grace);
        print(
          `${first} key ${rotated.id} made; it signs from ${rotated.activatesAt.toISOString()} (every gateway reads the keys again within ` +
            `${String(KEY_RING_REFRESH_MS / 1000)} s); ` +
            (rotated.previous.retiresAt === null
              ? `${rotated.previous.id} keeps matching the cards it fingerprinted`
              : `${rotated.previous.id} verifies until ${rotated.previous.retiresAt.toISOString()}`),
        );
        break;
      }
      case 'keys list':
        for (const key of await listKeys(context))
          print(
            [
              key.name,
              key.id,
              key.state,
              `created ${key.createdAt.toISOString()}`,
              `signs from ${key.activatesAt.toISOString()}`,
              `retires ${key.retiresAt?.toISOString() ?? '-'}`,
              ...(key.cards === undefined ? [] : [`${String(key.cards)} card(s)`]),
            ].join('\t'),
          );
        break;
      case 'sessions end': {
        const ended = await endSessions(context, first);
        print(`${String(ended.sessionsEnded)} session(s) and ${String(ended.trustedDevicesEnded)} trusted device(s) of ${first.trim().toLowerCase()} ended`);
        break;
      }
    }
    return EXIT.ok;
  } finally {
    await db.close();
    if (release) {
      await release();
      await makeDataFilesPrivate(config.dataDir);
    }
  }
}

/**
 * The environment's key a rotated key is sealed under. On PostgreSQL, and in production, it must come from its
 * variable as the gateways' does: a key file generated here would seal a key no gateway can open.
 */
async function rootKeyOf(config: GatewayConfig, rawName: string): Promise<Buffer> {
  const name = checkedKeyName(rawName);
  const value = { 'token-signing': config.tokenSigningKey, 'totp-encryption': config.totpEncryptionKey, 'card-fingerprint': config.cardFingerprintKey }[name];
  if ((value === undefined || value === '') && (config.databaseUrl !== undefined || config.mode === 'production'))
    throw new AdminRefusal(
      `${ROOT_KEY_VARIABLES[name]} is not set: the new key is sealed under it, so give this command the gateways' ${ROOT_KEY_VARIABLES[name]}.`,
      EXIT.config,
    );
  return loadRootKey(name, value, config.dataDir);
}

/** ADMIN_OPERATOR, else the system user: who the audit trail names. */
function operatorName(): string {
  const name = (process.env.ADMIN_OPERATOR ?? userInfo().username).replace(/[^A-Za-z0-9._@-]/g, '').slice(0, 64);
  return name === '' ? 'unknown' : name;
}

/** One line from stdin; on a terminal asked twice, without echo. */
async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return (Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '').replace(/\r$/, '');
  }
  const first = await promptHidden('Password for the agent: ');
  const again = await promptHidden('Again: ');
  if (first !== again) throw new AdminRefusal('The two passwords differ; nothing was changed.');
  return first;
}

function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    process.stderr.write(question);
    const stdin = process.stdin;
    stdin.setRawMode(true);
    stdin.resume();
    let typed = '';
    const onData = (data: Buffer) => {
      for (const char of data.toString('utf8')) {
        if (char === '\r' || char === '\n') {
          done();
          resolve(typed);
          return;
        }
        if (char === '\u0003') {
          done();
          reject(new AdminRefusal('Interrupted; nothing was changed.'));
          return;
        }
        typed = char === '\u007f' || char === '\b' ? typed.slice(0, -1) : typed + char;
      }
    };
    const done = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
    };
    stdin.on('data', onData);
  });
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof AdminRefusal) {
    process.stderr.write(`admin: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else {
    // Never the error's details: a database error may quote a statement's parameters (a password hash, an address).
    const { name, code } = error as Error & { code?: string };
    process.stderr.write(`admin: the task failed (${name}${code ? ` ${code}` : ''}); nothing was changed.\n`);
    process.exitCode = 1;
  }
}
