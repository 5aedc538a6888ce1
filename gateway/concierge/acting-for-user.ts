import { maskCardNumber } from '../../schemas/validators/card-number';
import type { UserProfile } from '../../schemas/entities/user-profile';
import type { AccountNoticeJob } from '../account/account-notices';
import type { Database, Queryable } from '../db/database';
import type { Fixtures } from '../site-files/load-fixtures';
import {
  readUserSite,
  saveChangedAttributes,
  saveWholeSiteObject,
  type SaveContext,
  type SiteAttributes,
  type UserSiteRecord,
} from '../profile/site-attributes';
import { copySiteProfileToUser } from '../profile/user-profile';
import type { AgentCall } from './act-for';
import { withAudit, type AuditEntry, type ConciergeAction } from './concierge-audit';

/**
 * ADR 0014 "Acting for the user": the card holder's own profile code (ADR 0010, `gateway/profile/*`)
 * run for the user an agent acts for, each change with its audit row in the same transaction.
 */

/** Attributes an agent never reads: passwords are never shown to anyone, and a card only masked. */
const HIDDEN_FROM_AGENTS: readonly string[] = ['password', 'confirm_password'];

export async function readUserSiteForAgent(db: Database, userId: string, siteId: string): Promise<UserSiteRecord> {
  const record = await readUserSite(db, userId, siteId);
  const attributes: SiteAttributes = Object.fromEntries(Object.entries(record.attributes).filter(([key]) => !HIDDEN_FROM_AGENTS.includes(key)));
  if (typeof attributes.pan === 'string') attributes.pan = maskCardNumber(attributes.pan);
  return { ...record, attributes };
}

export interface ActingForCall extends AgentCall {
  fixtures: Fixtures;
  userId: string;
  siteId: string;
  /** Queues the person's notice of the change, in the change's own transaction (gateway/account/account-notices.ts). */
  notify(job: AccountNoticeJob, tx: Queryable): Promise<void>;
}

function entry(call: ActingForCall, action: ConciergeAction, attributeKeys: readonly string[]): AuditEntry {
  return { agentId: call.agent.userId, userId: call.userId, siteId: call.siteId, action, attributeKeys, correlationId: call.correlationId, at: call.now };
}

/**
 * The audit row of a save, and the card holder's notice of it: no change is kept without both
 * (docs/decisions/0021-backup-codes-and-account-notices.md, one mail per saved change). A save that
 * changed nothing tells nobody.
 */
async function auditedAndTold(call: ActingForCall, action: ConciergeAction, attributeKeys: readonly string[], tx: Queryable): Promise<AuditEntry> {
  if (attributeKeys.length > 0) {
    await call.notify({ notice: 'agent-acted', userId: call.userId, siteId: call.siteId, attributeKeys, at: call.now.toISOString() }, tx);
  }
  return entry(call, action, attributeKeys);
}

/** The card holder's save, as their own profile code runs it. */
export function saveContextOf(call: ActingForCall): SaveContext {
  return { fixtures: call.fixtures, userId: call.userId, siteId: call.siteId, today: call.now };
}

/** ADR 0010 v2 for the user: the keys sent are what the row names. */
export function saveChangedForUser(db: Database, call: ActingForCall, changes: SiteAttributes, baseVersion: number | undefined): Promise<UserSiteRecord> {
  return withAudit(
    db,
    (tx) => saveChangedAttributes(tx, saveContextOf(call), changes, baseVersion),
    (_saved, tx) => auditedAndTold(call, 'attributes.save', Object.keys(changes), tx),
  );
}

/** ADR 0010 whole site object for the user: the row names the keys whose value changed. */
export async function saveWholeForUser(db: Database, call: ActingForCall, attributes: SiteAttributes, version: number): Promise<UserSiteRecord> {
  let before: SiteAttributes = {};
  return withAudit(
    db,
    async (tx) => {
      before = (await readUserSite(tx, call.userId, call.siteId)).attributes;
      return saveWholeSiteObject(tx, saveContextOf(call), attributes, version);
    },
    (saved, tx) => auditedAndTold(call, 'site-object.save', changedKeys(before, saved.attributes), tx),
  );
}

/**
 * ADR 0010 `user-mgmt/user/update` for the user: audited, but no notice of its own. It copies into the profile
 * what an attribute save just stored, and that save already told the holder which fields changed; a notice here
 * was a second mail for one edit-profile save (ADR 0014 "Audit trail", ADR 0021: one mail per saved change).
 */
export function updateProfileForUser(db: Database, call: ActingForCall): Promise<UserProfile> {
  return withAudit(
    db,
    (tx) => copySiteProfileToUser(tx, call.fixtures, call.userId, call.siteId),
    () => entry(call, 'profile.update', []),
  );
}

function changedKeys(before: SiteAttributes, after: SiteAttributes): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => canonicalJson(before[key]) !== canonicalJson(after[key])).sort();
}

/** JSON with object keys sorted, so the same value reads the same whatever its key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
      .join(',')}}`;
  }
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JSON.stringify answers undefined for undefined, though typed string
  return JSON.stringify(value) ?? 'null';
}
