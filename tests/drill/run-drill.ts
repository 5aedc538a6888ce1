/**
 * `npm run drill` (README "Fault drill", ADR 0026): the gateway bundle as `npm start` builds it, under a bounded
 * load on loopback (drill-load.ts), meets one fault at a time; a table per fault says how many requests were
 * answered, the errors by status and code, how long until the last failed answer, and how many acknowledged
 * writes are missing from the database when each is checked afterwards, row by row.
 *
 * - PGlite: one instance (PGlite is one process's database; its holder file refuses a second gateway on the
 *   folder), SIGKILLed and restarted, then SIGTERMed and restarted, as an orchestrator would.
 * - PostgreSQL and Redis, when 127.0.0.1:5432 (database `test`, user postgres, or DRILL_DATABASE_URL) and
 *   127.0.0.1:6379 (or DRILL_REDIS_URL) answer: two instances on a database of the drill's own behind a
 *   round-robin proxy; SIGKILL of one, SIGTERM of the other, every backend terminated (pg_terminate_backend),
 *   PostgreSQL unreachable for 5 s and Redis unreachable for 5 s (TCP relays the drill cuts).
 *
 * Everything it starts it stops; a watchdog ends the run after 4 minutes whatever happens.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Redis } from 'ioredis';
import pg from 'pg';
import { bundleGateway, GATEWAY_BUILD_DIR } from '../../gateway/cli/gateway-bundle';
import { DrillLoad, LOAD_RATE_PER_SECOND, type Outcome, type SaveAttempt } from './drill-load';
import { startGateway, startRoundRobinProxy, startTcpRelay, stopGateway as stopInstance, type GatewayInstance, type RoundRobinProxy } from './drill-parts';

const DATABASE_SERVER_URL = process.env.DRILL_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_SERVER_URL = process.env.DRILL_REDIS_URL ?? 'redis://127.0.0.1:6379';
const BASELINE_MS = 2_000;
/** A fault is over when its repair is done and nothing has failed for this long. */
const QUIET_MS = 3_000;
const PHASE_LIMIT_MS = 25_000;
const OUTAGE_MS = 5_000;

const started = Date.now();
const children = new Set<GatewayInstance>();
const watchdog = setTimeout(() => {
  console.error('drill: 4 minutes passed, stopping everything');
  for (const instance of children) instance.child.kill('SIGKILL');
  process.exit(2);
}, 240_000);

/** What the tables do not show: how each SIGTERMed instance exited (0: drained in time; ADR 0026 "Shutdown"). */
const notes: string[] = [];

/** Instances the drill itself is stopping: any other exit is a crash, and noted. */
const stopping = new Set<GatewayInstance>();
const stopGateway = (instance: GatewayInstance, signal: NodeJS.Signals) => {
  stopping.add(instance);
  return stopInstance(instance, signal);
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Fault {
  label: string;
  /** Injects the fault and repairs it (restart, reconnect); resolves when the repair is done. */
  inject: () => Promise<void>;
}

interface FaultRow {
  label: string;
  sent: number;
  answered: number;
  errors: Map<string, number>;
  recoverMs: number | null;
  registrationsAcknowledged: number;
  savesAcknowledged: number;
  lost: number;
}

async function runFault(load: DrillLoad, fault: Fault): Promise<{ from: number; faultAt: number }> {
  load.phase = fault.label;
  const from = Date.now();
  await sleep(BASELINE_MS);
  const faultAt = Date.now();
  await fault.inject();
  for (;;) {
    const lastFailure = Math.max(
      0,
      ...load.outcomes.filter((outcome) => outcome.phase === fault.label && outcome.result !== 'ok').map((outcome) => outcome.endedAt),
    );
    if (Date.now() - Math.max(lastFailure, faultAt) >= QUIET_MS || Date.now() - faultAt > PHASE_LIMIT_MS) break;
    await sleep(250);
  }
  return { from, faultAt };
}

function rowOf(label: string, outcomes: Outcome[], faultAt: number): Omit<FaultRow, 'registrationsAcknowledged' | 'savesAcknowledged' | 'lost'> {
  const mine = outcomes.filter((outcome) => outcome.phase === label);
  const errors = new Map<string, number>();
  for (const outcome of mine)
    if (outcome.result !== 'ok') errors.set(`${outcome.kind}: ${outcome.result}`, (errors.get(`${outcome.kind}: ${outcome.result}`) ?? 0) + 1);
  const failures = mine.filter((outcome) => outcome.result !== 'ok');
  return {
    label,
    sent: mine.length,
    // Answered by a gateway: not by the proxy for want of one, not a client-side failure.
    answered: mine.filter((outcome) => /^(ok|\d{3}\b)/.test(outcome.result)).length,
    errors,
    recoverMs: failures.length === 0 ? null : Math.max(...failures.map((outcome) => outcome.endedAt)) - faultAt,
  };
}

/**
 * Acknowledged writes missing from the database, by phase. A registration answered 202 must have its account row.
 * A user's profile field must hold the value of its last acknowledged save, or of a later save that was not
 * acknowledged (it may have been written before its answer was lost); saves of one user never overlap.
 */
async function lostWrites(load: DrillLoad, query: (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>): Promise<Map<string, number>> {
  const lost = new Map<string, number>();
  const count = (phase: string) => lost.set(phase, (lost.get(phase) ?? 0) + 1);
  const emails = load.registrations.map((registration) => registration.email);
  const found = new Set((await query('select email from users where email = any($1)', [emails])).map((row) => String(row.email)));
  // A registration is a job (README "Account work after the answer"): acknowledged once the job row is stored. One
  // that has no account yet must still be in account_jobs: taken by a killed instance (its lease runs out within
  // 2 minutes), waiting for a retry, or dropped and kept for `npm run admin -- jobs retry`.
  const queued = await query(
    `select payload->>'email' as email, dropped_at is not null as dropped, locked_until > now() as leased from account_jobs
     where kind = 'registration' and payload->>'email' = any($1)`,
    [emails],
  );
  const queuedByEmail = new Map(queued.map((row) => [String(row.email), row.dropped === true ? 'dropped' : row.leased === true ? 'leased' : 'due']));
  for (const registration of load.registrations) {
    if (found.has(registration.email)) continue;
    const state = queuedByEmail.get(registration.email);
    if (state !== undefined) {
      notes.push(`kept: the acknowledged registration of ${registration.email} (${registration.phase}) is still a ${state} job`);
      continue;
    }
    count(registration.phase);
    notes.push(`lost: the acknowledged registration of ${registration.email} (${registration.phase}) has no account row and no job`);
  }
  const byUser = new Map<string, SaveAttempt[]>();
  for (const save of load.saves) byUser.set(`${save.email} ${save.siteId}`, [...(byUser.get(`${save.email} ${save.siteId}`) ?? []), save]);
  for (const saves of byUser.values()) {
    const lastAcknowledged = saves.findLastIndex((save) => save.acknowledged);
    if (lastAcknowledged < 0) continue;
    const [row] = await query(
      `select s.attributes->>'first_name' as value from user_sites s join users u on u.id = s.user_id where u.email = $1 and s.site_id = $2`,
      [saves[0]!.email, saves[0]!.siteId],
    );
    const allowed = new Set(saves.slice(lastAcknowledged).map((save) => save.value));
    if (allowed.has(String(row?.value))) continue;
    count(saves[lastAcknowledged]!.phase);
    notes.push(
      `lost: ${saves[0]!.email} on ${saves[0]!.siteId} holds first_name ${String(row?.value)}, not its last acknowledged save ${saves[lastAcknowledged]!.value} (${saves[lastAcknowledged]!.phase}) or a later one`,
    );
  }
  return lost;
}

function printTable(title: string, rows: FaultRow[]): void {
  console.log(`\n${title} (${String(LOAD_RATE_PER_SECOND)} req/s: reads, profile saves, registrations, sign-ins)\n`);
  console.log(
    '| fault | requests | answered | errors by kind, status and code | time to recover (fault → last failed answer) | acknowledged writes (registrations + saves) | lost |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) {
    const errors = [...row.errors].map(([key, value]) => `${String(value)} × ${key}`).join('; ') || 'none';
    const recover = row.recoverMs === null ? 'no failed request' : `${(row.recoverMs / 1000).toFixed(1)} s`;
    console.log(
      `| ${row.label} | ${String(row.sent)} | ${String(row.answered)} | ${errors} | ${recover} | ${String(row.registrationsAcknowledged)} + ${String(row.savesAcknowledged)} | ${String(row.lost)} |`,
    );
  }
}

async function drive(load: DrillLoad, faults: Fault[]): Promise<{ label: string; faultAt: number }[]> {
  await load.prepare();
  load.start();
  const done: { label: string; faultAt: number }[] = [];
  try {
    for (const fault of faults) done.push({ label: fault.label, faultAt: (await runFault(load, fault)).faultAt });
  } finally {
    await load.stop();
  }
  // The last answers' jobs run one turn after them (README "Account work after the answer").
  await sleep(2_000);
  return done;
}

function rowsOf(load: DrillLoad, done: { label: string; faultAt: number }[], lost: Map<string, number>): FaultRow[] {
  return done.map(({ label, faultAt }) => ({
    ...rowOf(label, load.outcomes, faultAt),
    registrationsAcknowledged: load.registrations.filter((registration) => registration.phase === label).length,
    savesAcknowledged: load.saves.filter((save) => save.phase === label && save.acknowledged).length,
    lost: lost.get(label) ?? 0,
  }));
}

async function start(label: string, entry: string, env: Record<string, string>): Promise<GatewayInstance> {
  const instance = await startGateway(label, entry, env);
  children.add(instance);
  void instance.exited.then((code) => {
    if (!stopping.has(instance))
      notes.push(
        `gateway ${label} exited by itself (code ${String(code)}, signal ${String(instance.child.signalCode)}); its last output:\n${instance.output().slice(-3000)}`,
      );
    children.delete(instance);
  });
  return instance;
}

/** PGlite: one instance behind the proxy, killed and restarted on its folder. */
async function pgliteDrill(entry: string): Promise<FaultRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-drill-'));
  const env = { DATA_DIR: dataDir, TRUST_PROXY: 'true' };
  let instance = await start('pglite', entry, env);
  const proxy = await startRoundRobinProxy([instance.url]);
  const restartAfter = async (signal: NodeJS.Signals) => {
    const code = await stopGateway(instance, signal);
    if (signal === 'SIGTERM') notes.push(`PGlite instance on SIGTERM: exit code ${String(code)}`);
    proxy.upstreams = [];
    instance = await start('pglite', entry, env);
    proxy.upstreams = [instance.url];
  };
  const load = new DrillLoad(proxy.url);
  try {
    const done = await drive(load, [
      { label: 'SIGKILL, restarted', inject: () => restartAfter('SIGKILL') },
      { label: 'SIGTERM, restarted', inject: () => restartAfter('SIGTERM') },
    ]);
    const code = await stopGateway(instance, 'SIGTERM');
    notes.push(`PGlite instance at the end of the drill, on SIGTERM: exit code ${String(code)}`);
    const db = await PGlite.create({ dataDir: join(dataDir, 'db') });
    try {
      const lost = await lostWrites(load, async (sql, params) => (await db.query<Record<string, unknown>>(sql, params)).rows);
      return rowsOf(load, done, lost);
    } finally {
      await db.close();
    }
  } finally {
    await stopGateway(instance, 'SIGKILL');
    await proxy.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function answers(check: () => Promise<unknown>): Promise<boolean> {
  try {
    await Promise.race([check(), sleep(2_000).then(() => Promise.reject(new Error('timeout')))]);
    return true;
  } catch {
    return false;
  }
}

/** PostgreSQL and Redis: two instances behind the round-robin proxy, on a database and key prefix of the drill's own. */
async function pairDrill(entry: string): Promise<FaultRow[]> {
  const suffix = randomBytes(6).toString('hex');
  const databaseName = `drill_${suffix}`;
  const keyPrefix = `drill:${suffix}:`;
  const admin = new pg.Client({ connectionString: DATABASE_SERVER_URL });
  await admin.connect();
  await admin.query(`create database ${databaseName}`);
  const server = new URL(DATABASE_SERVER_URL);
  const redisServer = new URL(REDIS_SERVER_URL);
  const pgRelay = await startTcpRelay(server.hostname, Number(server.port || 5432));
  const redisRelay = await startTcpRelay(redisServer.hostname, Number(redisServer.port || 6379));
  const viaRelay = new URL(DATABASE_SERVER_URL);
  viaRelay.port = String(pgRelay.port);
  viaRelay.pathname = `/${databaseName}`;
  const redisViaRelay = new URL(REDIS_SERVER_URL);
  redisViaRelay.port = String(redisRelay.port);
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-drill-pair-'));
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: viaRelay.toString(),
    REDIS_URL: redisViaRelay.toString(),
    REDIS_KEY_PREFIX: keyPrefix,
    TRUST_PROXY: 'true',
    TOKEN_SIGNING_KEY: randomBytes(32).toString('hex'),
    TOTP_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    CARD_FINGERPRINT_KEY: randomBytes(32).toString('hex'),
  };
  // One after the other: the first migrates and seeds the demo users.
  const instances: GatewayInstance[] = [await start('a', entry, env)];
  instances.push(await start('b', entry, env));
  let proxy: RoundRobinProxy | undefined;
  try {
    proxy = await startRoundRobinProxy(instances.map((instance) => instance.url));
    const restart = async (index: number, signal: NodeJS.Signals) => {
      const instance = instances[index]!;
      const code = await stopGateway(instance, signal);
      if (signal === 'SIGTERM') notes.push(`PostgreSQL instance ${instance.label} on SIGTERM: exit code ${String(code)}`);
      proxy!.upstreams = proxy!.upstreams.filter((url) => url !== instance.url);
      instances[index] = await start(instance.label, entry, env);
      proxy!.upstreams = [...proxy!.upstreams, instances[index].url];
    };
    const load = new DrillLoad(proxy.url);
    const done = await drive(load, [
      { label: 'SIGKILL of one instance, restarted', inject: () => restart(0, 'SIGKILL') },
      { label: 'SIGTERM of one instance, restarted', inject: () => restart(1, 'SIGTERM') },
      {
        label: 'PostgreSQL: every backend terminated',
        inject: async () => {
          await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [databaseName]);
        },
      },
      {
        label: `PostgreSQL unreachable ${String(OUTAGE_MS / 1000)} s`,
        inject: async () => {
          pgRelay.cut();
          await sleep(OUTAGE_MS);
          pgRelay.restore();
        },
      },
      {
        label: `Redis unreachable ${String(OUTAGE_MS / 1000)} s`,
        inject: async () => {
          redisRelay.cut();
          await sleep(OUTAGE_MS);
          redisRelay.restore();
        },
      },
    ]);
    const check = new pg.Client({ connectionString: Object.assign(new URL(DATABASE_SERVER_URL), { pathname: `/${databaseName}` }).toString() });
    await check.connect();
    try {
      const lost = await lostWrites(load, async (sql, params) => (await check.query<Record<string, unknown>>(sql, params)).rows);
      return rowsOf(load, done, lost);
    } finally {
      await check.end();
    }
  } finally {
    await Promise.all(instances.map((instance) => stopGateway(instance, 'SIGTERM')));
    await proxy?.close();
    await pgRelay.close();
    await redisRelay.close();
    await admin.query(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
    const redis = new Redis(REDIS_SERVER_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

try {
  const entry = await bundleGateway(GATEWAY_BUILD_DIR);
  printTable('Fault drill: embedded PGlite, one instance', await pgliteDrill(entry));
  const database = new pg.Client({ connectionString: DATABASE_SERVER_URL, connectionTimeoutMillis: 2_000 });
  const redis = new Redis(REDIS_SERVER_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  const serversAnswer = (await answers(async () => database.connect())) && (await answers(async () => redis.connect()));
  await database.end().catch(() => undefined);
  redis.disconnect();
  if (serversAnswer) printTable('Fault drill: PostgreSQL and Redis, two instances behind a round-robin proxy', await pairDrill(entry));
  else
    console.log(
      `\nPostgreSQL (${new URL(DATABASE_SERVER_URL).host}) or Redis (${new URL(REDIS_SERVER_URL).host}) did not answer: the two-instance drill was skipped.`,
    );
  for (const note of notes) console.log(`\n${note}`);
  console.log(`\nThe drill took ${((Date.now() - started) / 1000).toFixed(0)} s.`);
} finally {
  clearTimeout(watchdog);
  for (const instance of children) instance.child.kill('SIGKILL');
}
