import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../../gateway/db/database';
import { buildGateway } from '../../../gateway/server';
import { AdjustableClock } from '../../../gateway/time/clock';
import { describeEachDatabase, type TestDatabase } from '../support/database-legs';
import { insertUser, TestBrowser } from '../support/test-browser';
import { realFixtures } from '../support/test-gateway';

/**
 * Round trips of the signed-in reads (ADR 0003: every statement is one round trip to PostgreSQL). The
 * access hook finds the session, its user with their profile and an agent's site grant in one query
 * (gateway/auth/session-store.ts), so a read of one's own profile is that one query and a read of other
 * data, the card holder an agent acts for included, is that query and the data's own. Only the
 * statements a request itself sends are counted (the job queue's poll runs on its own timer).
 */
const SITE = 'firstbank';
const PASSWORD = 'Rewards#2025x';

/** `db` as the gateway sees it, with every statement it sends during `counting.run(label, …)` counted under that label. */
function countingDatabase(db: Database, counting: AsyncLocalStorage<string[]>): Database {
  const counted = (target: Queryable): Queryable => ({
    query: (sql, params) => {
      counting.getStore()?.push(sql);
      return target.query(sql, params);
    },
    exec: (sql) => {
      counting.getStore()?.push(sql);
      return target.exec(sql);
    },
  });
  return {
    ...db,
    ...counted(db),
    transaction: (work) => {
      // begin and commit (or rollback) are round trips of their own.
      counting.getStore()?.push('begin', 'commit');
      return db.transaction((tx) => work(counted(tx)));
    },
  };
}

describeEachDatabase((leg) => {
  let test: TestDatabase;
  let app: FastifyInstance;
  let clock: AdjustableClock;
  let emilyId: string;
  const counting = new AsyncLocalStorage<string[]>();

  beforeEach(async () => {
    test = await leg.openMigrated();
    clock = new AdjustableClock();
    app = await buildGateway({ db: countingDatabase(test.db, counting), fixtures: await realFixtures(), testMode: true, auth: { clock } });
    emilyId = await insertUser(test.db, { email: 'emily@example.com', password: PASSWORD, siteId: SITE });
    await test.db.query(`update users set first_name = 'Emily', last_name = 'Carter', dob = '1988-04-12', title = 'Ms', gender = 'F' where id = $1`, [emilyId]);
    await insertUser(test.db, { email: 'riley@example.com', password: PASSWORD, siteId: SITE, roles: ['ROLE_CONCIERGE'] });
  });
  afterEach(async () => {
    await app.close();
    await test.dispose();
  });

  async function signedIn(email: string): Promise<TestBrowser> {
    const browser = new TestBrowser(app);
    expect((await browser.call({ method: 'POST', url: 'test-support/session', json: { email, siteId: SITE } })).statusCode).toBe(200);
    return browser;
  }

  /** A GET of `url` and the statements it sent. */
  async function read(browser: TestBrowser, url: string) {
    const statements: string[] = [];
    const response = await counting.run(statements, () => browser.call({ method: 'GET', url }));
    return { response, statements };
  }

  const EMILY_PROFILE = {
    dob: '1988-04-12',
    email: 'emily@example.com',
    firstName: 'Emily',
    lastName: 'Carter',
    title: 'Ms',
    userAccountStatus: 'ACTIVE',
    mfaEnrollmentStatus: 'NOT_ENROLLED',
    gender: 'F',
  };

  describe('a card holder', () => {
    it('reads their profile in one round trip, the session and the user together', async () => {
      const emily = await signedIn('emily@example.com');
      const { response, statements } = await read(emily, 'user-mgmt/user/find');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ...EMILY_PROFILE, primaryUserIdentifier: emilyId });
      expect(statements).toHaveLength(1);
    });

    it.each([`user-attribute/user/${SITE}`, `user-attribute/user/assets/${SITE}`, 'user-attribute/user/assets', `my-cashback/${SITE}`])(
      'reads %s in two: the session with its user, then the data',
      async (url) => {
        const emily = await signedIn('emily@example.com');
        const { response, statements } = await read(emily, url);
        expect(response.statusCode).toBe(200);
        expect(statements).toHaveLength(2);
      },
    );

    it('moves "last used" in that same one query, once a minute at most (ADR 0025 "Sessions the holder can see")', async () => {
      const emily = await signedIn('emily@example.com');
      const lastUsed = async () =>
        (await test.db.query<{ last_used_at: Date }>('select last_used_at from sessions where user_id = $1', [emilyId])).rows[0]!.last_used_at.getTime();
      const opened = await lastUsed();
      clock.advance(61);
      const moving = await read(emily, 'user-mgmt/user/find');
      expect(moving.statements).toHaveLength(1);
      const moved = await lastUsed();
      expect(moved - opened).toBeGreaterThanOrEqual(61_000);
      clock.advance(30);
      expect((await read(emily, 'user-mgmt/user/find')).statements).toHaveLength(1);
      expect(await lastUsed()).toBe(moved);
    });

    it('still refuses an expired, a revoked and a deleted session, and another site, in that one query', async () => {
      const emily = await signedIn('emily@example.com');
      const refused = await read(emily, `user-attribute/user/otherbank`);
      expect(refused.response.statusCode).toBe(403);
      expect(refused.response.json().error).toBe('SITE_MISMATCH');
      expect(refused.statements).toHaveLength(1);

      await test.db.query('update sessions set revoked_at = now() where user_id = $1', [emilyId]);
      const revoked = await read(emily, 'user-mgmt/user/find');
      expect(revoked.response.statusCode).toBe(401);
      expect(revoked.statements).toHaveLength(1);

      const again = await signedIn('emily@example.com');
      clock.advance(31 * 60);
      const expired = await read(again, 'user-mgmt/user/find');
      expect(expired.response.statusCode).toBe(401);
      expect(expired.statements).toHaveLength(1);
    });
  });

  describe('a support agent', () => {
    it('reads their own profile in one round trip, whom they act for and that card holder’s profile in two', async () => {
      const riley = await signedIn('riley@example.com');
      const nobody = await read(riley, 'user-mgmt/user/concierge/act-for');
      expect(nobody.response.json()).toEqual({ actingFor: null });
      // Acting for nobody: no card holder to read.
      expect(nobody.statements).toHaveLength(1);
      const notYet = await read(riley, 'user-mgmt/user/find-concierge');
      expect(notYet.response.statusCode).toBe(409);
      expect(notYet.response.json().error).toBe('NOT_ACTING_FOR_USER');

      expect((await riley.call({ method: 'POST', url: 'user-mgmt/user/concierge/act-for', json: { email: 'emily@example.com' } })).statusCode).toBe(200);
      const actingFor = await read(riley, 'user-mgmt/user/concierge/act-for');
      expect(actingFor.response.json()).toEqual({ actingFor: { primaryUserIdentifier: emilyId, firstName: 'Emily', lastName: 'Carter' } });
      expect(actingFor.statements).toHaveLength(2);
      const profile = await read(riley, 'user-mgmt/user/find-concierge');
      expect(profile.response.statusCode).toBe(200);
      expect(profile.response.json()).toEqual({ ...EMILY_PROFILE, primaryUserIdentifier: emilyId });
      expect(profile.statements).toHaveLength(2);

      const own = await read(riley, 'user-mgmt/user/find');
      expect(own.response.json()).toMatchObject({ email: 'riley@example.com' });
      expect(own.statements).toHaveLength(1);
    });

    it.each([`user-attribute/concierge/user/${SITE}`, `user-attribute/concierge/user/assets/${SITE}`])('reads %s for the card holder in two', async (url) => {
      const riley = await signedIn('riley@example.com');
      expect((await riley.call({ method: 'POST', url: 'user-mgmt/user/concierge/act-for', json: { email: 'emily@example.com' } })).statusCode).toBe(200);
      const { response, statements } = await read(riley, url);
      expect(response.statusCode).toBe(200);
      expect(statements).toHaveLength(2);
    });

    it('acts for nobody once that card holder is deleted, and loses the session with a withdrawn grant', async () => {
      const riley = await signedIn('riley@example.com');
      expect((await riley.call({ method: 'POST', url: 'user-mgmt/user/concierge/act-for', json: { email: 'emily@example.com' } })).statusCode).toBe(200);
      await test.db.query('delete from users where id = $1', [emilyId]);
      const gone = await read(riley, 'user-mgmt/user/find-concierge');
      expect(gone.response.statusCode).toBe(409);
      expect((await read(riley, 'user-mgmt/user/concierge/act-for')).response.json()).toEqual({ actingFor: null });

      await test.db.query('delete from agent_site_grants');
      const withdrawn = await read(riley, 'user-mgmt/user/find');
      expect(withdrawn.response.statusCode).toBe(403);
      expect(withdrawn.response.json().error).toBe('SITE_NOT_GRANTED');
    });
  });
});
