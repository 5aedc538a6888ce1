import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../gateway/db/database';
import { openPglite } from '../../../gateway/db/open-pglite';
import { openPostgres } from '../../../gateway/db/open-postgres';
import { startPortal, type PortalProcess } from '../../e2e/support/portal-process';
import { ANA_PASSWORD, firstbankUser, registrationBody } from '../support/account-requests';
import { eligiblePan } from '../cards/card-test-support';
import { realFixtures } from '../support/test-gateway';
import { cardLimitOf } from '../../../schemas/cards/card-rules';
import { featureConfigOf } from '../../../schemas/site-config/types';

/**
 * Crash safety: the real gateway process (`gateway/main.ts`) is killed with
 * SIGKILL in the middle of a burst of registrations and card enrolments, then started again on
 * the same data. Every acknowledged write must be there and the database consistent:
 * - a registration answered 202 (ADR 0012) is, right after the kill, a stored job or an account,
 *   and after the restart the job queue turns every leftover job into the account;
 * - a card enrolment answered 201 (ADR 0011) is in `assets`;
 * - at most one default card per user and site (and exactly one where there are cards, ADR 0011
 *   "the first card becomes the default"), no user past the site's card limit (SPEC §3 pan_capture
 *   `limit`), no row pointing at a missing user, and the embedded database opens cleanly.
 * Once on the embedded PGlite under DATA_DIR, once on PostgreSQL (a fresh database) when
 * TEST_DATABASE_URL is set.
 */

const POSTGRES_URL = process.env.TEST_DATABASE_URL || undefined;
const METRICS_TOKEN = randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', '');
const SITE_ID = 'firstbank';
const XSRF = `crash-${randomUUID()}`;
const HOLDERS = 6;
const REGISTRATIONS = 60;
/** The kill comes once this share of each kind of call has been answered, so calls are still in flight. */
const KILL_AFTER_SHARE = 0.4;
/** ADR 0012: a job taken by the killed gateway is leased for 2 minutes; the restarted gateway's test clock moves past that. */
const PAST_JOB_LEASE_SECONDS = 3 * 60;

interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

/** One caller of the real gateway: the XSRF pair on every call, its own client address (TRUST_PROXY), its session cookie. */
async function call(
  portal: PortalProcess,
  method: string,
  path: string,
  options: { json?: unknown; ip?: string; cookie?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const response = await fetch(`${portal.baseUrl}/api/${path}`, {
    method,
    headers: {
      cookie: [`XSRF-TOKEN=${XSRF}`, options.cookie].filter(Boolean).join('; '),
      'x-xsrf-token': XSRF,
      ...(options.ip ? { 'x-forwarded-for': options.ip } : {}),
      ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown), headers: response.headers };
}

function register(portal: PortalProcess, email: string, serial: number, ip: string): Promise<Answer> {
  const body = registrationBody(firstbankUser({ email, first_name: 'Crash', last_name: 'Test' }), [{ pan: eligiblePan(serial) }]);
  return call(portal, 'POST', 'user-mgmt/user/registration', { json: body, ip, headers: { 'x-hcaptcha-token': 'crash-test-captcha' } });
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The activation token of the newest mail to `email` in the development outbox. */
async function activationToken(portal: PortalProcess, email: string): Promise<string | undefined> {
  const answer = await call(portal, 'GET', `dev-outbox/messages?to=${encodeURIComponent(email)}`);
  const messages = (answer.body as { messages: { text: string }[] }).messages;
  return /\/account\/activate\?token=([A-Za-z0-9_-]+)/.exec(messages[0]?.text ?? '')?.[1];
}

/** Registers, activates and signs in a card holder; returns the session cookies. */
async function activeHolder(portal: PortalProcess, email: string, serial: number, ip: string): Promise<string> {
  expect((await register(portal, email, serial, ip)).status).toBe(202);
  const token = await waitFor(`the activation mail to ${email}`, () => activationToken(portal, email));
  expect((await call(portal, 'POST', 'user-mgmt/user/activate-token', { json: { token, password: ANA_PASSWORD }, ip })).status).toBe(200);
  const session = await fetch(`${portal.baseUrl}/api/test-support/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, siteId: SITE_ID }),
  });
  expect(session.status).toBe(200);
  return session.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}

interface Acknowledged {
  registrations: string[];
  /** assetId → the holder it was enrolled for. */
  enrolments: Map<string, string>;
  sent: number;
  unanswered: number;
}

/**
 * The burst: every registration and enrolment at once, interleaved, and SIGKILL as soon as
 * `KILL_AFTER_SHARE` of each kind has been answered. Only what was answered before the kill counts
 * as acknowledged.
 */
async function burstAndKill(portal: PortalProcess, holders: { email: string; cookie: string }[], cardsEach: number, runId: string): Promise<Acknowledged> {
  const acknowledged: Acknowledged = { registrations: [], enrolments: new Map(), sent: 0, unanswered: 0 };
  let killed = false;
  const killWhenEnoughAnswered = async () => {
    const enrolmentCalls = holders.length * cardsEach;
    const enough =
      acknowledged.registrations.length >= Math.ceil(REGISTRATIONS * KILL_AFTER_SHARE) &&
      acknowledged.enrolments.size >= Math.ceil(enrolmentCalls * KILL_AFTER_SHARE);
    if (!killed && enough) {
      killed = true;
      await portal.stop('SIGKILL');
    }
  };
  const track = (work: () => Promise<Answer>, onAcknowledged: (answer: Answer) => void) => () =>
    work().then(
      async (answer) => {
        if (killed) return;
        onAcknowledged(answer);
        await killWhenEnoughAnswered();
      },
      () => {
        acknowledged.unanswered++;
      },
    );
  const registrations = Array.from({ length: REGISTRATIONS }, (_unused, index) => {
    const email = `burst-${runId}-${index}@crash.example`;
    return track(
      () => register(portal, email, 20_000 + index, `10.20.${Math.floor(index / 200)}.${(index % 200) + 1}`),
      (answer) => {
        expect(answer.status, JSON.stringify(answer.body)).toBe(202);
        acknowledged.registrations.push(email);
      },
    );
  });
  const enrolments = holders.flatMap((holder, holderIndex) =>
    Array.from({ length: cardsEach }, (_unused, card) =>
      track(
        () =>
          call(portal, 'POST', 'user-attribute/user/assets', {
            json: { siteId: SITE_ID, userAssetRequest: [{ assetType: 'PAN', value: eligiblePan(40_000 + holderIndex * 100 + card) }] },
            cookie: holder.cookie,
          }),
        (answer) => {
          expect(answer.status, JSON.stringify(answer.body)).toBe(201);
          for (const asset of answer.body as { assetId: string }[]) acknowledged.enrolments.set(asset.assetId, holder.email);
        },
      ),
    ),
  );
  // Interleaved, so neither kind waits behind the other.
  const burst = Array.from({ length: Math.max(registrations.length, enrolments.length) }, (_unused, index) => [enrolments[index], registrations[index]]).flat();
  const calls = burst.filter((start) => start !== undefined).map((start) => start());
  acknowledged.sent = calls.length;
  await Promise.all(calls);
  expect(killed, 'the gateway was killed during the burst').toBe(true);
  return acknowledged;
}

/** Registrations acknowledged but neither an account nor a stored job: lost writes. */
async function lostRegistrations(db: Database, emails: readonly string[]): Promise<string[]> {
  const accounts = await db.query<{ email: string }>('select email from users where email = any($1)', [emails]);
  const jobs = await db.query<{ email: string }>(
    "select payload->>'email' as email from account_jobs where kind = 'registration' and payload->>'email' = any($1)",
    [emails],
  );
  const present = new Set([...accounts.rows, ...jobs.rows].map(({ email }) => email));
  return emails.filter((email) => !present.has(email));
}

/** The consistency rules of the header comment; returns the problems found. */
async function inconsistencies(db: Database, limit: number): Promise<string[]> {
  const problems: string[] = [];
  const defaults = await db.query<{ user_id: string; site_id: string; cards: number; defaults: number }>(
    'select user_id, site_id, count(*)::int as cards, count(*) filter (where is_default)::int as defaults from assets group by user_id, site_id',
  );
  for (const row of defaults.rows) {
    if (row.defaults !== 1) problems.push(`user ${row.user_id} on ${row.site_id} has ${row.defaults} default cards of ${row.cards}`);
    if (row.site_id === SITE_ID && row.cards > limit) problems.push(`user ${row.user_id} has ${row.cards} cards on ${SITE_ID}, past its limit of ${limit}`);
  }
  const withUserId = await db.query<{ table_name: string }>(
    "select table_name from information_schema.columns where table_schema = current_schema() and column_name = 'user_id' and table_name <> 'users'",
  );
  for (const { table_name: table } of withUserId.rows) {
    const orphans = await db.query<{ n: number }>(
      `select count(*)::int as n from ${table} t where t.user_id is not null and not exists (select 1 from users u where u.id = t.user_id)`,
    );
    if ((orphans.rows[0]?.n ?? 0) > 0) problems.push(`${orphans.rows[0]?.n} rows of ${table} name a missing user`);
  }
  const halfAccounts = await db.query<{ email: string }>(
    "select email from users u where not exists (select 1 from user_sites s where s.user_id = u.id) and email like '%@crash.example'",
  );
  for (const { email } of halfAccounts.rows) problems.push(`${email} has an account without its site profile`);
  return problems;
}

interface Leg {
  name: string;
  env: () => Record<string, string>;
  /** The gateway's data, opened by the test while no gateway runs. */
  openDatabase: () => Promise<Database>;
  dispose: () => Promise<void>;
}

function pgliteLeg(): Leg {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-crash-'));
  return {
    name: 'PGlite under DATA_DIR',
    env: () => ({ DATA_DIR: dataDir }),
    openDatabase: () => openPglite(join(dataDir, 'db')),
    dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

function postgresLeg(url: string): Leg {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-crash-pg-'));
  const database = `crash_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const target = new URL(url);
  target.pathname = `/${database}`;
  let created = false;
  return {
    name: 'PostgreSQL (a fresh database)',
    env: () => ({ DATA_DIR: dataDir, DATABASE_URL: target.toString() }),
    openDatabase: async () => {
      if (!created) {
        const admin = await openPostgres({ connectionString: url });
        await admin.exec(`create database ${database}`);
        await admin.close();
        created = true;
      }
      return openPostgres({ connectionString: target.toString() });
    },
    dispose: async () => {
      if (created) {
        const admin = await openPostgres({ connectionString: url });
        await admin.exec(`drop database if exists ${database} with (force)`);
        await admin.close();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const legs: { name: string; leg: () => Leg; skip: boolean }[] = [
  { name: 'PGlite under DATA_DIR', leg: pgliteLeg, skip: false },
  {
    name: POSTGRES_URL === undefined ? 'PostgreSQL leg skipped: TEST_DATABASE_URL not set' : 'PostgreSQL (a fresh database)',
    leg: () => postgresLeg(POSTGRES_URL ?? ''),
    skip: POSTGRES_URL === undefined,
  },
];

describe('crash safety', () => {
  const disposals: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const dispose of disposals) await dispose();
  });
  if (POSTGRES_URL === undefined)
    console.warn('PostgreSQL leg skipped: TEST_DATABASE_URL not set (set it to e.g. postgres://postgres@127.0.0.1:5432/test to run it)');

  for (const { name, leg: makeLeg, skip } of legs) {
    it.skipIf(skip)(
      `${name}: SIGKILL mid-burst loses no acknowledged registration or card, and leaves the data consistent`,
      async () => {
        const leg = makeLeg();
        const started = Date.now();
        let portal: PortalProcess | undefined;
        disposals.push(async () => {
          await portal?.stop('SIGKILL');
          await leg.dispose();
        });
        const site = (await realFixtures()).sites.get(SITE_ID);
        if (!site) throw new Error(`no site ${SITE_ID} in fixtures/sites`);
        const limit = cardLimitOf(featureConfigOf(site.config, 'pan_capture').limit);
        // A PostgreSQL leg's database exists before the gateway starts on it.
        await (await leg.openDatabase()).close();

        const env = { GATEWAY_TEST_MODE: 'true', TRUST_PROXY: 'true', LOG_LEVEL: 'warn', METRICS_TOKEN, ...leg.env() };
        portal = await startPortal(env);
        const runId = randomUUID().slice(0, 8);
        const holders: { email: string; cookie: string }[] = [];
        for (let index = 0; index < HOLDERS; index++) {
          const email = `holder-${runId}-${index}@crash.example`;
          holders.push({ email, cookie: await activeHolder(portal, email, 10_000 + index, `10.10.0.${index + 1}`) });
        }
        // Each holder's registration card counts toward the limit: the burst fills the rest.
        const acknowledged = await burstAndKill(portal, holders, limit - 1, runId);
        const killedAt = Date.now();

        let jobsLeftByCrash: number;
        // Straight after the kill, before any gateway runs again: the data opens, and every acknowledged write is stored.
        const afterCrash = await leg.openDatabase();
        try {
          expect(await lostRegistrations(afterCrash, acknowledged.registrations)).toEqual([]);
          const pending = await afterCrash.query<{ n: number }>(
            "select count(*)::int as n from account_jobs where kind = 'registration' and payload->>'email' = any($1)",
            [acknowledged.registrations],
          );
          jobsLeftByCrash = pending.rows[0]?.n ?? 0;
          const cards = await afterCrash.query<{ id: string }>('select id from assets where id = any($1)', [[...acknowledged.enrolments.keys()]]);
          expect(cards.rows.map(({ id }) => id).sort()).toEqual([...acknowledged.enrolments.keys()].sort());
          expect(await inconsistencies(afterCrash, limit)).toEqual([]);
        } finally {
          await afterCrash.close();
        }

        // The restart on the same data: leftover jobs are taken again once their lease has run out.
        portal = await startPortal(env);
        const clock = await fetch(`${portal.baseUrl}/api/test-support/clock`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ advanceSeconds: PAST_JOB_LEASE_SECONDS }),
        });
        expect(clock.status).toBe(200);
        const restarted = portal;
        for (const email of acknowledged.registrations) await waitFor(`the account of ${email} after the restart`, () => activationToken(restarted, email));
        // The cut-off registrations whose job was stored are done too before the gateway stops: a stop finishes the
        // job in hand, not the queue (README "Metrics", gateway_account_jobs).
        await waitFor('every account job done after the restart', async () => {
          const scrape = await fetch(`${restarted.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
          const metrics = await scrape.text();
          const waiting = ['due', 'scheduled', 'running'].map(
            (state) => new RegExp(`^gateway_account_jobs\\{state="${state}"\\} (\\d+)$`, 'm').exec(metrics)?.[1],
          );
          return waiting.every((count) => count === '0') ? true : undefined;
        });
        // The holders' cards are still theirs and listed (ADR 0011 GET {assetsUrl}).
        for (const holder of holders) {
          const session = await fetch(`${restarted.baseUrl}/api/test-support/session`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: holder.email, siteId: SITE_ID }),
          });
          const cookie = session.headers
            .getSetCookie()
            .map((line) => line.split(';')[0])
            .join('; ');
          const listed = await call(restarted, 'GET', `user-attribute/user/assets/${SITE_ID}`, { cookie });
          expect(listed.status).toBe(200);
          const ids = new Set((listed.body as { assetId: string }[]).map((asset) => asset.assetId));
          for (const [assetId, owner] of acknowledged.enrolments)
            if (owner === holder.email) expect(ids, `card ${assetId} of ${holder.email}`).toContain(assetId);
        }
        expect(await portal.stop('SIGTERM')).toBe(0);
        portal = undefined;

        const afterRestart = await leg.openDatabase();
        try {
          const accounts = await afterRestart.query<{ email: string; sites: number; cards: number }>(
            `select u.email, (select count(*)::int from user_sites s where s.user_id = u.id) as sites, (select count(*)::int from assets a where a.user_id = u.id) as cards
             from users u where u.email = any($1)`,
            [acknowledged.registrations],
          );
          expect(accounts.rows.map(({ email }) => email).sort()).toEqual([...acknowledged.registrations].sort());
          // Each registration complete: its site profile and its one card (ADR 0009).
          for (const account of accounts.rows) expect(account, account.email).toMatchObject({ sites: 1, cards: 1 });
          const leftovers = await afterRestart.query<{ n: number }>(
            "select count(*)::int as n from account_jobs where kind = 'registration' and payload->>'email' like '%@crash.example'",
          );
          expect(leftovers.rows[0]?.n).toBe(0);
          const cards = await afterRestart.query<{ id: string }>('select id from assets where id = any($1)', [[...acknowledged.enrolments.keys()]]);
          expect(cards.rows).toHaveLength(acknowledged.enrolments.size);
          expect(await inconsistencies(afterRestart, limit)).toEqual([]);
        } finally {
          await afterRestart.close();
        }
        console.info(
          `crash safety (${leg.name}): ${acknowledged.sent} writes sent, ${acknowledged.registrations.length} registrations and ${acknowledged.enrolments.size} enrolments acknowledged before SIGKILL, ` +
            `${acknowledged.unanswered} cut off, ${jobsLeftByCrash} acknowledged registrations still jobs at the kill; all acknowledged found after the restart; burst to kill ${Math.round((killedAt - started) / 1000)} s, whole run ${Math.round((Date.now() - started) / 1000)} s`,
        );
        // The burst was a real one: the kill fell among answered and unanswered calls of both kinds.
        expect(acknowledged.registrations.length).toBeGreaterThan(0);
        expect(acknowledged.enrolments.size).toBeGreaterThan(0);
        expect(acknowledged.unanswered).toBeGreaterThan(0);
      },
      240_000,
    );
  }
});
