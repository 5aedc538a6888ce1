import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  AdminRefusal,
  createAgent,
  disableAgent,
  endSessions,
  grantSite,
  listAgents,
  listJobs,
  retryJob,
  revokeSite,
  type AdminContext,
} from '../../../gateway/admin/admin-tasks';
import { findSessionUser, openSession } from '../../../gateway/auth/session-store';
import { describeEachDatabase, type TestDatabase } from '../support/database-legs';

/**
 * README "Admin command": the tasks of `npm run admin` on both databases. Each change carries its operator_audit
 * row in the same transaction; each refusal is an AdminRefusal with a printable message and leaves nothing.
 */
const PASSWORD = 'Agent#Password-2026';
const SITES = new Set(['firstbank', 'eurobank']);

describeEachDatabase((leg) => {
  let test: TestDatabase;
  let context: AdminContext;
  beforeEach(async () => {
    test = await leg.openMigrated();
    context = { db: test.db, sites: SITES, operator: 'ops.tester', correlationId: 'admin-test-run', now: new Date() };
  });
  afterEach(() => test.dispose());

  const auditRows = async () =>
    (
      await test.db.query<{ action: string; site_id: string | null; correlation_id: string }>(
        'select action, site_id, correlation_id from operator_audit order by id',
      )
    ).rows;
  const refusal = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AdminRefusal);
    return error as AdminRefusal;
  };

  it('an agent is created, granted a second site, revoked from it (its session there ends) and disabled (every session ends), each step audited', async () => {
    const { userId } = await createAgent(context, { email: ' New.Agent@Example.com ', sites: ['firstbank'], password: PASSWORD, firstName: 'Nora' });
    expect(await listAgents(context)).toEqual([{ email: 'new.agent@example.com', status: 'ACTIVE', sites: ['firstbank'] }]);
    expect(await grantSite(context, 'new.agent@example.com', 'eurobank')).toEqual({ granted: true });
    expect(await grantSite(context, 'new.agent@example.com', 'eurobank')).toEqual({ granted: false });
    const { token } = await openSession(test.db, userId, 'eurobank', context.now);
    expect(await findSessionUser(test.db, token, context.now)).toMatchObject({ isAgent: true, siteGranted: true });
    expect(await revokeSite(context, 'new.agent@example.com', 'eurobank')).toEqual({ revoked: true });
    expect(await findSessionUser(test.db, token, context.now)).toBeNull();
    const home = await openSession(test.db, userId, 'firstbank', context.now);
    expect(await disableAgent(context, 'new.agent@example.com')).toEqual({ sitesWithdrawn: 1, sessionsEnded: 1 });
    expect(await findSessionUser(test.db, home.token, context.now)).toBeNull();
    expect(await listAgents(context)).toEqual([{ email: 'new.agent@example.com', status: 'LOCKED', sites: [] }]);
    expect(await auditRows()).toEqual([
      { action: 'agent.create', site_id: null, correlation_id: 'admin-test-run' },
      { action: 'agent.grant', site_id: 'eurobank', correlation_id: 'admin-test-run' },
      { action: 'agent.revoke', site_id: 'eurobank', correlation_id: 'admin-test-run' },
      { action: 'agent.disable', site_id: null, correlation_id: 'admin-test-run' },
    ]);
  });

  it('refuses an unknown site, control characters, a duplicate, a short password and a card holder taken for an agent, leaving nothing', async () => {
    expect((await refusal(createAgent(context, { email: 'a@example.com', sites: ['firstbank', 'nosuchbank'], password: PASSWORD }))).message).toBe(
      'Unknown site "nosuchbank": the sites of this deployment are eurobank, firstbank.',
    );
    expect((await refusal(createAgent(context, { email: 'a\u0000b@example.com', sites: ['firstbank'], password: PASSWORD }))).message).toBe(
      'The e-mail address holds control or invisible characters; type it again.',
    );
    expect((await refusal(createAgent(context, { email: 'a@example.com', sites: ['firstbank\u001b'], password: PASSWORD }))).message).toMatch(
      /^Unknown site: /,
    );
    const short = await refusal(createAgent(context, { email: 'a@example.com', sites: ['firstbank'], password: 'short' }));
    expect(short.message).not.toContain('short');
    await createAgent(context, { email: 'a@example.com', sites: ['firstbank'], password: PASSWORD });
    expect((await refusal(createAgent(context, { email: 'A@example.com', sites: ['eurobank'], password: PASSWORD }))).message).toBe(
      'An account with the address a@example.com already exists; nothing was changed.',
    );
    await test.db.query(`insert into users (email, password_hash, status) values ('holder@example.com', $1, 'ACTIVE')`, [randomBytes(8).toString('hex')]);
    expect((await refusal(grantSite(context, 'holder@example.com', 'firstbank'))).message).toBe(
      "holder@example.com is a card holder's account, not a support agent's.",
    );
    expect((await refusal(revokeSite(context, 'nobody@example.com', 'firstbank'))).message).toBe('No account has the address nobody@example.com.');
    expect((await refusal(grantSite(context, 'a@example.com', 'nosuchbank'))).exitCode).toBe(65);
    expect(await listAgents(context)).toEqual([{ email: 'a@example.com', status: 'ACTIVE', sites: ['firstbank'] }]);
    expect((await auditRows()).map((row) => row.action)).toEqual(['agent.create']);
  });

  it('lists a dropped job without its payload, retries it once, and refuses an id that is no dropped job', async () => {
    const { rows } = await test.db.query<{ id: string }>(
      `insert into account_jobs (kind, payload, attempts, run_after, created_at, dropped_at, drop_reason)
       values ('activation-email', '{"email":"holder@example.com"}', 5, $1, $1, $1, 'Error ECONNECTION') returning id`,
      [context.now],
    );
    const jobId = rows[0]!.id;
    const listed = await listJobs(context);
    expect(listed).toEqual([expect.objectContaining({ id: jobId, kind: 'activation-email', attempts: 5, reason: 'Error ECONNECTION' })]);
    expect(JSON.stringify(listed)).not.toContain('holder@example.com');
    expect(await retryJob(context, jobId)).toEqual({ kind: 'activation-email' });
    expect(await listJobs(context)).toEqual([]);
    expect((await refusal(retryJob(context, jobId))).message).toContain('No dropped job has the id');
    expect((await auditRows()).map((row) => row.action)).toEqual(['job.retry']);
  });

  it('ends every session of a holder, audited; an unknown address is refused', async () => {
    await test.db.query(`insert into users (email, password_hash, status) values ('holder@example.com', 'x', 'ACTIVE')`);
    const userId = (await test.db.query<{ id: string }>(`select id from users where email = 'holder@example.com'`)).rows[0]!.id;
    const first = await openSession(test.db, userId, 'firstbank', context.now);
    await openSession(test.db, userId, 'firstbank', context.now);
    expect(await endSessions(context, 'Holder@Example.com')).toEqual({ sessionsEnded: 2, trustedDevicesEnded: 0 });
    expect(await findSessionUser(test.db, first.token, context.now)).toBeNull();
    expect((await refusal(endSessions(context, 'nobody@example.com'))).exitCode).toBe(65);
    expect((await auditRows()).map((row) => row.action)).toEqual(['sessions.end']);
  });
});
