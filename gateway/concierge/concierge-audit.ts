import type { Database, Queryable } from '../db/database';

/** ADR 0014 "Audit trail": what an agent did for a card holder. */
export type ConciergeAction = 'act-for.start' | 'act-for.stop' | 'attributes.save' | 'site-object.save' | 'profile.update' | 'alias.set';

export interface AuditEntry {
  agentId: string;
  userId: string;
  siteId: string;
  action: ConciergeAction;
  /** The attribute keys a save touched; never their values, which may be secret. */
  attributeKeys?: readonly string[];
  /** The call's X-CID, so a support ticket leads to the row. */
  correlationId: string;
  at: Date;
}

/** One audit row as `GET user-mgmt/user/concierge/audit` answers it. */
export interface AuditRecord {
  userId: string;
  siteId: string;
  action: ConciergeAction;
  attributeKeys: string[];
  correlationId: string;
  at: string;
}

export async function recordAction(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.query(
    `insert into concierge_audit (agent_id, user_id, site_id, action, attribute_keys, correlation_id, created_at)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [entry.agentId, entry.userId, entry.siteId, entry.action, [...(entry.attributeKeys ?? [])], entry.correlationId, entry.at],
  );
}

/**
 * Runs `work` and writes its audit row in one transaction, so no change is kept without its row.
 * `work` gets a Database whose transactions join this one: the profile code it reuses opens its own.
 */
export function withAudit<T>(
  db: Database,
  work: (tx: Database) => Promise<T>,
  entryFor: (result: T, tx: Queryable) => Promise<AuditEntry> | AuditEntry,
): Promise<T> {
  return db.transaction(async (tx) => {
    const result = await work(joinedTransaction(db, tx));
    await recordAction(tx, await entryFor(result, tx));
    return result;
  });
}

function joinedTransaction(db: Database, tx: Queryable): Database {
  return {
    kind: db.kind,
    query: (sql, params) => tx.query(sql, params),
    exec: (sql) => tx.exec(sql),
    transaction: (work) => work(tx),
    // The outer transaction owns the connection.
    close: async () => undefined,
  };
}

/** The agent's own newest 50 rows. */
export async function listAgentAudit(db: Queryable, agentId: string): Promise<AuditRecord[]> {
  const result = await db.query<{
    user_id: string;
    site_id: string;
    action: ConciergeAction;
    attribute_keys: string[];
    correlation_id: string;
    created_at: Date | string;
  }>(
    `select user_id, site_id, action, attribute_keys, correlation_id, created_at from concierge_audit
      where agent_id = $1 order by created_at desc, id desc limit 50`,
    [agentId],
  );
  return result.rows.map((row) => ({
    userId: row.user_id,
    siteId: row.site_id,
    action: row.action,
    attributeKeys: row.attribute_keys,
    correlationId: row.correlation_id,
    at: new Date(row.created_at).toISOString(),
  }));
}
