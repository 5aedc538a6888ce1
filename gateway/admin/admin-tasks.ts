import { isStorableText } from '../../schemas/validators/characters';
import { validateEmail } from '../../schemas/validators/email';
import { CONCIERGE_ROLE, endEverySession } from '../auth/session-store';
import type { Database, Queryable } from '../db/database';
import { listDroppedJobs, retryDroppedJob, type DroppedJob } from '../jobs/dropped-jobs';
import {
  KEY_ACTIVATION_DELAY_MS,
  KEY_COLUMNS,
  KEY_NAMES,
  KeyRing,
  KeyRingError,
  newKeySecret,
  ringKeyOf,
  sealKey,
  type KeyName,
  type KeyRow,
} from '../security/key-ring';
import { hashPassword } from '../security/password-hashing';

/**
 * The tasks of `npm run admin` (docs/decisions/0026-metrics-and-admin-command.md, README "Admin command"), as
 * functions on a database, so the command and its tests run the same code. Each change is one transaction with
 * its `operator_audit` row (migration 024): a refused or failed task leaves nothing behind. Nothing here returns
 * or throws a password or a token.
 */

/** A refusal for the operator: its message is safe to print, its exit code says what kind (README "Admin command"). */
export class AdminRefusal extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.refused,
  ) {
    super(message);
    this.name = 'AdminRefusal';
  }
}

/** sysexits(3), as kcadm.sh and most operators' tools: usage 64, bad input 65, unavailable 69. */
export const EXIT = { ok: 0, usage: 64, refused: 65, unavailable: 69, config: 78 } as const;

export interface AdminContext {
  db: Database;
  /** The sites of the fixtures this deployment serves (an agent can only be granted one of them). */
  sites: ReadonlySet<string>;
  /** Who runs the command (ADMIN_OPERATOR or the system user name), for the audit trail. */
  operator: string;
  /** One id per run of the command, on each of its audit rows. */
  correlationId: string;
  now: Date;
}

type OperatorAction = 'agent.create' | 'agent.disable' | 'agent.grant' | 'agent.revoke' | 'job.retry' | 'sessions.end' | 'key.rotate';

/** Agents' passwords: at least this long (an operator sets it once; the agent may change it). */
export const AGENT_PASSWORD_MIN_LENGTH = 12;

async function audit(
  tx: Queryable,
  context: AdminContext,
  action: OperatorAction,
  subject: { userId?: string; siteId?: string; jobId?: string; keyName?: KeyName; keyId?: string },
): Promise<void> {
  await tx.query(
    `insert into operator_audit (operator, action, subject_user_id, site_id, job_id, key_name, key_id, correlation_id, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      context.operator,
      action,
      subject.userId ?? null,
      subject.siteId ?? null,
      subject.jobId ?? null,
      subject.keyName ?? null,
      subject.keyId ?? null,
      context.correlationId,
      context.now,
    ],
  );
}

/** An e-mail address as typed: refused (never echoed back raw) with control characters or an invalid shape. */
export function checkedEmail(value: string): string {
  if (!isStorableText(value)) throw new AdminRefusal('The e-mail address holds control or invisible characters; type it again.');
  if (validateEmail(value) !== null) throw new AdminRefusal(`"${value.trim()}" is not an e-mail address.`);
  return value.trim().toLowerCase();
}

function checkedSite(context: AdminContext, siteId: string): string {
  if (!isStorableText(siteId) || !context.sites.has(siteId))
    throw new AdminRefusal(
      `Unknown site${isStorableText(siteId) ? ` "${siteId}"` : ''}: the sites of this deployment are ${[...context.sites].sort().join(', ')}.`,
    );
  return siteId;
}

async function agentOf(tx: Queryable, email: string): Promise<{ id: string }> {
  const { rows } = await tx.query<{ id: string; roles: string[] }>('select id, roles from users where email = $1 for update', [email]);
  const user = rows[0];
  if (!user) throw new AdminRefusal(`No account has the address ${email}.`);
  if (!user.roles.includes(CONCIERGE_ROLE)) throw new AdminRefusal(`${email} is a card holder's account, not a support agent's.`);
  return user;
}

/** Creates an active support agent with a password and the sites given (at least one). */
export async function createAgent(
  context: AdminContext,
  input: { email: string; sites: readonly string[]; password: string; firstName?: string; lastName?: string },
): Promise<{ userId: string }> {
  const email = checkedEmail(input.email);
  if (input.sites.length === 0) throw new AdminRefusal('Name at least one site for the agent (--site <siteId>).', EXIT.usage);
  const sites = [...new Set(input.sites.map((site) => checkedSite(context, site)))];
  if (input.password.length < AGENT_PASSWORD_MIN_LENGTH || !isStorableText(input.password))
    throw new AdminRefusal(`The password must be at least ${String(AGENT_PASSWORD_MIN_LENGTH)} characters, without control characters.`);
  for (const name of [input.firstName, input.lastName])
    if (name !== undefined && (!isStorableText(name) || name.length > 100)) throw new AdminRefusal('A name must be 1 to 100 printable characters.');
  const passwordHash = await hashPassword(input.password);
  return context.db.transaction(async (tx) => {
    const existing = await tx.query('select 1 from users where email = $1', [email]);
    if (existing.rows.length > 0) throw new AdminRefusal(`An account with the address ${email} already exists; nothing was changed.`);
    const inserted = await tx.query<{ id: string }>(
      `insert into users (email, password_hash, first_name, last_name, status, roles, created_at, updated_at)
       values ($1, $2, $3, $4, 'ACTIVE', $5, $6, $6) returning id`,
      [email, passwordHash, input.firstName ?? null, input.lastName ?? null, [CONCIERGE_ROLE], context.now],
    );
    const userId = inserted.rows[0]?.id;
    if (userId === undefined) throw new Error('the agent was not inserted');
    // The profile's home site, as the demo agents have (gateway/db/seed-demo-data.ts).
    await tx.query('insert into user_sites (user_id, site_id) values ($1, $2)', [userId, sites[0]]);
    for (const siteId of sites)
      await tx.query('insert into agent_site_grants (user_id, site_id, granted_at) values ($1, $2, $3)', [userId, siteId, context.now]);
    await audit(tx, context, 'agent.create', { userId });
    return { userId };
  });
}

/** Withdraws every site and ends every session: the agent can sign in nowhere; their row and trail stay. */
export async function disableAgent(context: AdminContext, rawEmail: string): Promise<{ sitesWithdrawn: number; sessionsEnded: number }> {
  const email = checkedEmail(rawEmail);
  return context.db.transaction(async (tx) => {
    const agent = await agentOf(tx, email);
    const withdrawn = await tx.query('delete from agent_site_grants where user_id = $1 returning site_id', [agent.id]);
    await tx.query(`update users set status = 'LOCKED', updated_at = $2 where id = $1`, [agent.id, context.now]);
    const ended = await endEverySession(tx, agent.id, context.now);
    await audit(tx, context, 'agent.disable', { userId: agent.id });
    return { sitesWithdrawn: withdrawn.rows.length, sessionsEnded: ended.sessionsEnded };
  });
}

export async function grantSite(context: AdminContext, rawEmail: string, rawSite: string): Promise<{ granted: boolean }> {
  const email = checkedEmail(rawEmail);
  const siteId = checkedSite(context, rawSite);
  return context.db.transaction(async (tx) => {
    const agent = await agentOf(tx, email);
    const inserted = await tx.query('insert into agent_site_grants (user_id, site_id, granted_at) values ($1, $2, $3) on conflict do nothing returning 1', [
      agent.id,
      siteId,
      context.now,
    ]);
    if (inserted.rows.length === 0) return { granted: false };
    await tx.query(`update users set status = 'ACTIVE', updated_at = $2 where id = $1 and status = 'LOCKED'`, [agent.id, context.now]);
    await audit(tx, context, 'agent.grant', { userId: agent.id, siteId });
    return { granted: true };
  });
}

/** The agent's sessions on that site end at their next call (403 SITE_NOT_GRANTED, ADR 0017). */
export async function revokeSite(context: AdminContext, rawEmail: string, rawSite: string): Promise<{ revoked: boolean }> {
  const email = checkedEmail(rawEmail);
  const siteId = checkedSite(context, rawSite);
  return context.db.transaction(async (tx) => {
    const agent = await agentOf(tx, email);
    const deleted = await tx.query('delete from agent_site_grants where user_id = $1 and site_id = $2 returning 1', [agent.id, siteId]);
    if (deleted.rows.length === 0) return { revoked: false };
    await tx.query('update sessions set revoked_at = $3 where user_id = $1 and site_id = $2 and revoked_at is null', [agent.id, siteId, context.now]);
    await audit(tx, context, 'agent.revoke', { userId: agent.id, siteId });
    return { revoked: true };
  });
}

export interface AgentListing {
  email: string;
  status: string;
  sites: string[];
}

export async function listAgents(context: AdminContext): Promise<AgentListing[]> {
  const { rows } = await context.db.query<{ email: string; status: string; sites: string[] | null }>(
    `select u.email, u.status, array_remove(array_agg(g.site_id order by g.site_id), null) as sites
       from users u left join agent_site_grants g on g.user_id = u.id
      where $1 = any (u.roles) group by u.id, u.email, u.status order by u.email`,
    [CONCIERGE_ROLE],
  );
  return rows.map((row) => ({ email: row.email, status: row.status, sites: row.sites ?? [] }));
}

export function listJobs(context: AdminContext): Promise<DroppedJob[]> {
  return listDroppedJobs(context.db);
}

export async function retryJob(context: AdminContext, jobId: string): Promise<{ kind: string }> {
  return context.db.transaction(async (tx) => {
    const kind = await retryDroppedJob(tx, jobId, context.now);
    if (kind === null) throw new AdminRefusal(`No dropped job has the id "${isStorableText(jobId) ? jobId : '…'}"; \`jobs list\` shows them.`);
    await audit(tx, context, 'job.retry', { jobId });
    return { kind };
  });
}

/** Ends every session, refresh token and trusted device of a card holder (as "sign out everywhere" does). */
export async function endSessions(context: AdminContext, rawEmail: string): Promise<{ sessionsEnded: number; trustedDevicesEnded: number }> {
  const email = checkedEmail(rawEmail);
  return context.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>('select id from users where email = $1', [email]);
    const user = rows[0];
    if (!user) throw new AdminRefusal(`No account has the address ${email}.`);
    const ended = await endEverySession(tx, user.id, context.now);
    await audit(tx, context, 'sessions.end', { userId: user.id });
    return ended;
  });
}

/** A key name as typed, or a refusal naming the three. */
export function checkedKeyName(value: string): KeyName {
  const name = KEY_NAMES.find((known) => known === value);
  if (name === undefined) throw new AdminRefusal(`Unknown key${isStorableText(value) ? ` "${value}"` : ''}: the keys are ${KEY_NAMES.join(', ')}.`, EXIT.usage);
  return name;
}

/** The longest grace a rotation may give: a year and a day (a trusted device lasts far less, ADR 0025). */
export const MAX_GRACE_MS = 366 * 24 * 60 * 60_000;
const GRACE_UNITS_MS: Readonly<Record<string, number>> = { m: 60_000, h: 60 * 60_000, d: 24 * 60 * 60_000 };

/** `--grace` as typed: `0`, or a whole number of minutes, hours or days (`90m`, `12h`, `30d`), at most MAX_GRACE_MS. */
export function parseGrace(value: string): number {
  const match = /^(\d{1,6})([mhd])$/.exec(value);
  const ms = value === '0' ? 0 : match ? Number(match[1]) * (GRACE_UNITS_MS[match[2] ?? ''] ?? Number.NaN) : Number.NaN;
  if (!Number.isFinite(ms) || ms > MAX_GRACE_MS)
    throw new AdminRefusal(
      `--grace ${isStorableText(value) ? `"${value}" ` : ''}is not a grace: give 0 or a whole number of minutes, hours or days (90m, 12h, 30d), at most 366d.`,
      EXIT.usage,
    );
  return ms;
}

export interface KeyRotation {
  id: string;
  activatesAt: Date;
  /** The key that signed until now, and when it stops verifying (null: a card key, kept for matching). */
  previous: { id: string; retiresAt: Date | null };
}

/**
 * ADR 0026 "Key rotation with a grace window": a new key of `name`, sealed under `root` (the environment's key of
 * that name), signing from KEY_ACTIVATION_DELAY_MS on; the key it replaces verifies until then plus the grace, and
 * no earlier key outlives that. Card-fingerprint keys take no grace: they keep matching the cards they fingerprinted.
 */
export async function rotateKey(context: AdminContext, root: Buffer, rawName: string, grace: string | undefined): Promise<KeyRotation> {
  const name = checkedKeyName(rawName);
  const cardKey = name === 'card-fingerprint';
  if (cardKey && grace !== undefined)
    throw new AdminRefusal(
      'card-fingerprint takes no --grace: a card number is never stored, so a fingerprint cannot be made again under a new key, ' +
        'and every earlier card key keeps matching the cards it fingerprinted (ADR 0026).',
      EXIT.usage,
    );
  if (!cardKey && grace === undefined) throw new AdminRefusal(`Say how long the ${name} key it replaces keeps verifying: --grace <0|90m|12h|30d>.`, EXIT.usage);
  const graceMs = grace === undefined ? null : parseGrace(grace);
  return context.db.transaction(async (tx) => {
    const { rows } = await tx.query<KeyRow>(`select ${KEY_COLUMNS} from server_keys where name = $1 for update`, [name]);
    let ring: KeyRing;
    try {
      ring = new KeyRing(
        name,
        rows.map((row) => ringKeyOf(row, root)),
      );
    } catch (error) {
      if (error instanceof KeyRingError) throw new AdminRefusal(`${error.message} Nothing was changed.`, EXIT.config);
      throw error;
    }
    const now = context.now;
    const pending = ring.live(now).find((key) => key.activatesAt > now);
    if (pending !== undefined)
      throw new AdminRefusal(`The ${name} key ${pending.id} signs from ${pending.activatesAt.toISOString()}; rotate again after that. Nothing was changed.`);
    const previous = ring.current(now);
    const id = `k${String(Math.max(1, ...rows.map((row) => (row.id.startsWith('k') ? Number(row.id.slice(1)) : 1))) + 1)}`;
    const activatesAt = new Date(now.getTime() + KEY_ACTIVATION_DELAY_MS);
    await tx.query('insert into server_keys (name, id, sealed_secret, created_at, activates_at) values ($1, $2, $3, $4, $5)', [
      name,
      id,
      sealKey(root, name, id, newKeySecret()),
      now,
      activatesAt,
    ]);
    const retiresAt = graceMs === null ? null : new Date(activatesAt.getTime() + graceMs);
    if (retiresAt !== null)
      await tx.query('update server_keys set retires_at = $3 where name = $1 and id <> $2 and (retires_at is null or retires_at > $3)', [name, id, retiresAt]);
    await audit(tx, context, 'key.rotate', { keyName: name, keyId: id });
    return { id, activatesAt, previous: { id: previous.id, retiresAt } };
  });
}

export interface KeyListing {
  name: KeyName;
  id: string;
  createdAt: Date;
  activatesAt: Date;
  retiresAt: Date | null;
  state: 'current' | 'next' | 'verifies only' | 'retired';
  /** Card keys: the cards fingerprinted under it. */
  cards?: number;
}

/** Every key of every ring with its dates and what it does now; never a secret (this reads no sealed column). */
export async function listKeys(context: AdminContext): Promise<KeyListing[]> {
  const { rows } = await context.db.query<Omit<KeyRow, 'sealed_secret'>>('select name, id, created_at, activates_at, retires_at from server_keys');
  const cards = await context.db.query<{ key: string; n: number }>('select pan_fingerprint_key as key, count(*)::int as n from assets group by 1');
  const now = context.now;
  return KEY_NAMES.flatMap((name) => {
    const keys = rows
      .filter((row) => row.name === name)
      .map((row) => ({
        name,
        id: row.id,
        createdAt: new Date(row.created_at),
        activatesAt: new Date(row.activates_at),
        retiresAt: row.retires_at === null ? null : new Date(row.retires_at),
      }));
    if (keys.length === 0) return [];
    const ring = new KeyRing(
      name,
      keys.map((key) => ({ ...key, secret: Buffer.alloc(0) })),
    );
    const current = ring.current(now).id;
    return keys
      .sort((a, b) => a.activatesAt.getTime() - b.activatesAt.getTime())
      .map((key): KeyListing => {
        const state =
          key.id === current ? 'current' : key.retiresAt !== null && key.retiresAt <= now ? 'retired' : key.activatesAt > now ? 'next' : 'verifies only';
        return name === 'card-fingerprint' ? { ...key, state, cards: cards.rows.find((row) => row.key === key.id)?.n ?? 0 } : { ...key, state };
      });
  });
}
