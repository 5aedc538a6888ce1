import { AsyncLocalStorage } from 'node:async_hooks';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CODE_TTL_MS, MAX_CODE_ATTEMPTS } from '../../../gateway/auth/one-time-codes';
import type { Database, Queryable } from '../../../gateway/db/database';
import { activationTokenFor, ANA_PASSWORD, register, registrationBody } from '../support/account-requests';
import { openCardsGateway, PASSWORD, type CardsGateway, type RecordingBrowser } from '../cards/card-test-support';
import { describeEachDatabase } from '../support/database-legs';
import { insertUser } from '../support/test-browser';

/**
 * docs/decisions/0022-declared-calls.md "Proving an EMAIL alias", and ADR 0017's rows on the alias oracle and
 * squatting: `POST user-mgmt/user/alias` answers an EMAIL alias alike whoever holds the address, doing the same
 * work; the alias counts only once the code mailed to the address comes back through `alias/confirm`; and an
 * unproved alias never stands in the way of the address's real owner.
 */
const SITE = 'firstbank';
const ALIAS = 'user-mgmt/user/alias';
const CONFIRM = 'user-mgmt/user/alias/confirm';
/** The statement with which the job queue takes a job: what follows it is the job's work, after the answer. */
const JOB_TAKEN = 'update account_jobs set attempts = attempts + 1';

/**
 * Records the SQL the gateway runs for calls made inside `during` (its transactions too), never the job
 * queue's poll, which runs outside any call.
 */
function recordStatements(db: Database): { during<T>(call: () => Promise<T>): Promise<{ result: T; statements: string[] }> } {
  const calls = new AsyncLocalStorage<string[]>();
  const recording = (target: Queryable): Queryable['query'] => {
    const original = target.query.bind(target);
    return <T>(sql: string, params?: readonly unknown[]) => {
      calls.getStore()?.push(sql.replace(/\s+/g, ' ').trim());
      return original<T>(sql, params);
    };
  };
  db.query = recording(db);
  const transaction = db.transaction.bind(db);
  db.transaction = <T>(work: (tx: Queryable) => Promise<T>) => transaction((tx) => work({ query: recording(tx), exec: (sql) => tx.exec(sql) }));
  return {
    async during(call) {
      const statements: string[] = [];
      const result = await calls.run(statements, call);
      // The call's own work; the job it queued runs once the answer is out (ADR 0012).
      const taken = statements.findIndex((sql) => sql.startsWith(JOB_TAKEN));
      return { result, statements: taken === -1 ? statements : statements.slice(0, taken) };
    },
  };
}

/** An error body without its message, to compare two refusals member by member. */
const refusal = (response: LightMyRequestResponse): Record<string, unknown> => ({
  status: response.statusCode,
  ...response.json<Record<string, unknown>>(),
  message: undefined,
});

describeEachDatabase((leg) => {
  let gateway: CardsGateway;
  beforeEach(async () => {
    gateway = await openCardsGateway(leg);
  });
  afterEach(() => gateway.dispose());

  const addEmail = (browser: RecordingBrowser, alias: string) => browser.call({ method: 'POST', url: ALIAS, json: { alias, aliasType: 'EMAIL' } });
  const confirm = (browser: RecordingBrowser, alias: string, passcode: string) => browser.call({ method: 'POST', url: CONFIRM, json: { alias, passcode } });
  const jobsDone = () => gateway.app.accountJobs.whenIdle();
  const mailsTo = (address: string) => gateway.outbox.messagesTo(address);
  const aliasRow = async (userId: string) =>
    (
      await gateway.test.db.query<{ normalised: string; proved: boolean; has_code: boolean }>(
        `select normalised, proved_at is not null as proved, proof_hash is not null as has_code from user_aliases where user_id = $1 and alias_type = 'EMAIL'`,
        [userId],
      )
    ).rows[0];
  /** A six-digit code that is not `code`. */
  const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  /** Noah proves `noah.home@example.com` as his alias on the site, through the two calls. */
  async function noahWithProvedAlias(): Promise<void> {
    const noah = await gateway.signedIn('noah@example.com', SITE);
    expect((await addEmail(noah.browser, 'noah.home@example.com')).statusCode).toBe(200);
    await jobsDone();
    expect((await confirm(noah.browser, 'noah.home@example.com', await gateway.latestCode('noah.home@example.com'))).statusCode).toBe(200);
    expect(await aliasRow(noah.userId)).toEqual({ normalised: 'noah.home@example.com', proved: true, has_code: false });
  }

  describe('ADR 0017 "alias oracle": the answer never tells whose an address is', () => {
    it("answers a member's own address, another account's proved alias and a free address alike (status, body, the same statements); only the free one is mailed a code", async () => {
      await gateway.signedIn('emily@example.com', SITE);
      await noahWithProvedAlias();
      const recorder = recordStatements(gateway.test.db);
      const cases = [
        { who: 'daniel@example.com', address: 'Emily@Example.com' },
        { who: 'olivia@example.com', address: 'noah.home@example.com' },
        { who: 'liam@example.com', address: 'nobody.yet@example.com' },
      ];
      const callers = [];
      for (const { who, address } of cases) {
        const caller = await gateway.signedIn(who, SITE);
        const { result, statements } = await recorder.during(() => addEmail(caller.browser, address));
        callers.push({ ...caller, address, answer: result, statements });
      }
      for (const { address, answer } of callers) {
        expect(answer.statusCode, address).toBe(200);
        expect(answer.json(), address).toEqual({ alias: address, aliasType: 'EMAIL', proved: false });
      }
      // The same work in the same order: nothing in the call looks at who else has the address.
      const [first, ...others] = callers.map((caller) => caller.statements);
      expect(first!.length).toBeGreaterThan(2);
      for (const statements of others) expect(statements).toEqual(first);

      await jobsDone();
      // A code for the free address; to an address that is someone's, a notice carrying none.
      const [proof] = await mailsTo('nobody.yet@example.com');
      expect(proof?.subject).toBe('Confirm your e-mail address');
      expect(proof?.text).toMatch(/\b\d{6}\b/);
      for (const owned of ['emily@example.com', 'noah.home@example.com']) {
        const [notice] = await mailsTo(owned);
        expect(notice?.subject, owned).toBe('Someone tried to add your e-mail address to an account');
        expect(notice?.text, owned).not.toMatch(/\b\d{6}\b/);
      }
      // Every one of the three holds a code, so a wrong guess counts down alike too.
      const guess = otherThan(await gateway.latestCode('nobody.yet@example.com'));
      const refusals = [];
      for (const caller of callers) {
        expect(await aliasRow(caller.userId)).toMatchObject({ proved: false, has_code: true });
        refusals.push(refusal(await confirm(caller.browser, caller.address, guess)));
      }
      expect(refusals[0]).toEqual({
        status: 400,
        error: 'PASSCODE_INVALID',
        message: undefined,
        fields: { passcode: 'invalid' },
        attemptsLeft: MAX_CODE_ATTEMPTS - 1,
      });
      expect(refusals[1]).toEqual(refusals[0]);
      expect(refusals[2]).toEqual(refusals[0]);
    });

    it('a USERNAME keeps its 409 ALIAS_TAKEN (a handle is chosen to be seen, and holds no address); an EMAIL alias never answers it', async () => {
      const emily = await gateway.signedIn('emily@example.com', SITE);
      const daniel = await gateway.signedIn('daniel@example.com', SITE);
      expect((await emily.browser.call({ method: 'POST', url: ALIAS, json: { alias: 'rewards-fan', aliasType: 'USERNAME' } })).json()).toEqual({
        alias: 'rewards-fan',
        aliasType: 'USERNAME',
        proved: true,
      });
      expect((await daniel.browser.call({ method: 'POST', url: ALIAS, json: { alias: 'rewards-fan', aliasType: 'USERNAME' } })).statusCode).toBe(409);
      // An address cannot be tried as a handle: `@` is not a handle's character.
      const asHandle = await daniel.browser.call({ method: 'POST', url: ALIAS, json: { alias: 'emily@example.com', aliasType: 'USERNAME' } });
      expect(asHandle.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { alias: 'invalid' } });
    });
  });

  describe('ADR 0017 "alias squatting": an unproved alias counts for nothing', () => {
    it('squatted addresses stop neither the owner registering with one nor proving the other as an alias; the squatters never prove them, not even with the mailed codes', async () => {
      const daniel = await gateway.signedIn('daniel@example.com', SITE);
      const olivia = await gateway.signedIn('olivia@example.com', SITE);
      expect((await addEmail(daniel.browser, 'ana@example.com')).json()).toEqual({ alias: 'ana@example.com', aliasType: 'EMAIL', proved: false });
      expect((await addEmail(olivia.browser, 'ana.work@example.com')).json()).toEqual({ alias: 'ana.work@example.com', aliasType: 'EMAIL', proved: false });
      await jobsDone();
      // These codes went to Ana's mailboxes; here they stand for a code she was tricked into giving away.
      const danielsCode = await gateway.latestCode('ana@example.com');
      const oliviasCode = await gateway.latestCode('ana.work@example.com');

      // Ana registers with the address Daniel holds unproved (ADR 0009), and activates.
      const visitor = await gateway.anonymous();
      expect((await register(visitor, registrationBody())).statusCode).toBe(202);
      await jobsDone();
      const activated = await visitor.call({
        method: 'POST',
        url: 'user-mgmt/user/activate-token',
        json: { token: await activationTokenFor(gateway.outbox, 'ana@example.com'), password: ANA_PASSWORD },
      });
      expect(activated.statusCode).toBe(200);

      // And adds the address Olivia holds unproved: a code of her own, and it proves it.
      const ana = await gateway.signedInOn('ana@example.com', SITE);
      expect((await addEmail(ana, 'Ana.Work@example.com')).json()).toEqual({ alias: 'Ana.Work@example.com', aliasType: 'EMAIL', proved: false });
      await jobsDone();
      const anasCode = await gateway.latestCode('ana.work@example.com');
      expect(anasCode).not.toBe(oliviasCode);
      const proved = await confirm(ana, 'ana.work@example.com', anasCode);
      expect(proved.statusCode).toBe(200);
      expect(proved.json()).toEqual({ alias: 'Ana.Work@example.com', aliasType: 'EMAIL', proved: true });

      // The squatters, even holding their codes, are refused: the addresses are Ana's now.
      for (const [squatter, address, code] of [
        [daniel.browser, 'ana@example.com', danielsCode],
        [olivia.browser, 'ana.work@example.com', oliviasCode],
      ] as const) {
        const refused = await confirm(squatter, address, code);
        expect(refused.statusCode, address).toBe(409);
        expect(refused.json(), address).toMatchObject({ error: 'ALIAS_TAKEN', fields: { alias: 'taken' } });
      }
      expect(await aliasRow(daniel.userId)).toMatchObject({ proved: false });
      expect(await aliasRow(olivia.userId)).toMatchObject({ proved: false });
      const holders = await gateway.test.db.query<{ email: string }>(
        `select u.email from user_aliases a join users u on u.id = a.user_id where a.normalised = 'ana.work@example.com' and a.proved_at is not null`,
      );
      expect(holders.rows).toEqual([{ email: 'ana@example.com' }]);
    });

    it("an unactivated registration with someone's address does not make it theirs: its owner still gets the code", async () => {
      await insertUser(gateway.test.db, { email: 'pat@example.com', password: PASSWORD, siteId: SITE, status: 'INACTIVE' });
      const owner = await gateway.signedIn('pat.main@example.com', SITE);
      expect((await addEmail(owner.browser, 'pat@example.com')).statusCode).toBe(200);
      await jobsDone();
      expect((await confirm(owner.browser, 'pat@example.com', await gateway.latestCode('pat@example.com'))).json()).toMatchObject({ proved: true });
    });
  });

  describe('POST user-mgmt/user/alias/confirm', () => {
    it('proves the alias with the mailed code; a wrong code is 400 PASSCODE_INVALID counting down; a proved alias answers proved again, with nothing mailed', async () => {
      const emily = await gateway.signedIn('emily@example.com', SITE);
      expect((await addEmail(emily.browser, ' Emily.Work@example.com ')).json()).toEqual({
        alias: 'Emily.Work@example.com',
        aliasType: 'EMAIL',
        proved: false,
      });
      await jobsDone();
      const code = await gateway.latestCode('emily.work@example.com');
      const wrong = await confirm(emily.browser, 'emily.work@example.com', otherThan(code));
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({ error: 'PASSCODE_INVALID', fields: { passcode: 'invalid' }, attemptsLeft: MAX_CODE_ATTEMPTS - 1 });
      const right = await confirm(emily.browser, 'EMILY.WORK@example.com', code);
      expect(right.statusCode).toBe(200);
      expect(right.json()).toEqual({ alias: 'Emily.Work@example.com', aliasType: 'EMAIL', proved: true });
      expect(await aliasRow(emily.userId)).toEqual({ normalised: 'emily.work@example.com', proved: true, has_code: false });
      // Again (a second click): still proved. Posting the same address again keeps it proved, and mails nothing.
      expect((await confirm(emily.browser, 'emily.work@example.com', code)).json()).toMatchObject({ proved: true });
      expect((await addEmail(emily.browser, 'emily.work@example.com')).json()).toEqual({ alias: 'emily.work@example.com', aliasType: 'EMAIL', proved: true });
      await jobsDone();
      expect(await mailsTo('emily.work@example.com')).toHaveLength(1);
    });

    it('a code past its 10 minutes, or after 5 wrong tries, is refused with attemptsLeft 0; posting the alias again mails a new one', async () => {
      const emily = await gateway.signedIn('emily@example.com', SITE);
      await addEmail(emily.browser, 'emily.work@example.com');
      await jobsDone();
      const expired = await gateway.latestCode('emily.work@example.com');
      gateway.clock.advance(CODE_TTL_MS / 1000 + 1);
      expect(refusal(await confirm(emily.browser, 'emily.work@example.com', expired))).toMatchObject({
        status: 400,
        error: 'PASSCODE_INVALID',
        attemptsLeft: 0,
      });

      // The sign-in is past its 10 minutes of fresh proof (ADR 0025): an address alias is asked of a new one.
      expect((await addEmail(emily.browser, 'emily.work@example.com')).json()).toMatchObject({ error: 'FRESH_PROOF_REQUIRED' });
      emily.browser = await gateway.signedInOn('emily@example.com', SITE);
      await addEmail(emily.browser, 'emily.work@example.com');
      await jobsDone();
      const fresh = await gateway.latestCode('emily.work@example.com');
      for (let attempt = 1; attempt <= MAX_CODE_ATTEMPTS; attempt++) {
        expect((await confirm(emily.browser, 'emily.work@example.com', otherThan(fresh))).json().attemptsLeft).toBe(MAX_CODE_ATTEMPTS - attempt);
      }
      expect(refusal(await confirm(emily.browser, 'emily.work@example.com', fresh))).toMatchObject({ status: 400, error: 'PASSCODE_INVALID', attemptsLeft: 0 });
      expect(await aliasRow(emily.userId)).toMatchObject({ proved: false });
    });

    it('two accounts proving one address at once, each with its own code from that one mailbox: one proves it, the other is 409 ALIAS_TAKEN', async () => {
      const emily = await gateway.signedIn('emily@example.com', SITE);
      const daniel = await gateway.signedIn('daniel@example.com', SITE);
      await addEmail(emily.browser, 'shared.box@example.com');
      await addEmail(daniel.browser, 'shared.box@example.com');
      await jobsDone();
      // Newest first: Daniel's code, then Emily's.
      const [danielsCode, emilysCode] = (await mailsTo('shared.box@example.com')).map((message) => /\b(\d{6})\b/.exec(message.text)?.[1] ?? '');
      const answers = await Promise.all([
        confirm(emily.browser, 'shared.box@example.com', emilysCode!),
        confirm(daniel.browser, 'shared.box@example.com', danielsCode!),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      expect(answers.find((answer) => answer.statusCode === 409)?.json()).toMatchObject({ error: 'ALIAS_TAKEN', fields: { alias: 'taken' } });
      const proved = await gateway.test.db.query("select 1 from user_aliases where normalised = 'shared.box@example.com' and proved_at is not null");
      expect(proved.rows).toHaveLength(1);
    });

    it('409 ALIAS_NOT_PENDING for an address that is not the alias waiting (none, or replaced by another)', async () => {
      const emily = await gateway.signedIn('emily@example.com', SITE);
      const none = await confirm(emily.browser, 'emily.work@example.com', '123456');
      expect(none.statusCode).toBe(409);
      expect(none.json()).toMatchObject({ error: 'ALIAS_NOT_PENDING', fields: { alias: 'notPending' } });
      await addEmail(emily.browser, 'emily.work@example.com');
      await jobsDone();
      const code = await gateway.latestCode('emily.work@example.com');
      await addEmail(emily.browser, 'emily.home@example.com');
      expect((await confirm(emily.browser, 'emily.work@example.com', code)).json().error).toBe('ALIAS_NOT_PENDING');
      // A USERNAME is not confirmed: it counts from the start.
      await emily.browser.call({ method: 'POST', url: ALIAS, json: { alias: 'emily-c', aliasType: 'USERNAME' } });
      expect((await confirm(emily.browser, 'emily-c', '123456')).json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { alias: 'error' } });
    });

    it('odd bodies are clear 400s naming the field, never a 500; nothing is proved', async () => {
      const emily = await gateway.signedIn('emily@example.com', SITE);
      await addEmail(emily.browser, 'emily.work@example.com');
      await jobsDone();
      for (const json of [
        {},
        { alias: 'emily.work@example.com' },
        { passcode: '123456' },
        { alias: 'emily.work@example.com', passcode: '12345' },
        { alias: 'emily.work@example.com', passcode: '12345a' },
        { alias: 'emily.work@example.com', passcode: ' 123456' },
        { alias: 'emily.work@example.com', passcode: '１２３４５６' },
        { alias: 'emily.work@example.com', passcode: null },
        { alias: 'emily.work@example.com', passcode: ['123456'] },
        { alias: 'emily.work@example.com', passcode: '123456', aliasType: 'EMAIL' },
        { alias: '   ', passcode: '123456' },
        { alias: 'not-an-address', passcode: '123456' },
        { alias: 'emily\u0000@example.com', passcode: '123456' },
        { alias: `${'a'.repeat(250)}@example.com`, passcode: '123456' },
        { alias: 7, passcode: '123456' },
      ]) {
        const response = await emily.browser.call({ method: 'POST', url: CONFIRM, json });
        expect(response.statusCode, JSON.stringify(json)).toBe(400);
        expect(response.headers['content-type'], JSON.stringify(json)).toMatch(/^application\/json/);
        expect(response.json().fields, JSON.stringify(json)).toBeDefined();
      }
      const broken = await emily.browser.call({ method: 'POST', url: CONFIRM, headers: { 'content-type': 'application/json' }, json: undefined });
      expect(broken.statusCode).toBe(400);
      expect(await aliasRow(emily.userId)).toMatchObject({ proved: false });
    });

    it('ADR 0014, ADR 0025: an agent never sets an address alias for the holder (403 CONCIERGE_NOT_ALLOWED), nor proves one; the holder does both', async () => {
      const emily = await gateway.signedIn('emily@example.com', SITE);
      await insertUser(gateway.test.db, { email: 'riley@example.com', password: PASSWORD, siteId: SITE, roles: ['ROLE_CONCIERGE'] });
      const agent = await gateway.signedInOn('riley@example.com', SITE);
      expect((await agent.call({ method: 'POST', url: 'user-mgmt/user/concierge/act-for', json: { email: 'emily@example.com' } })).statusCode).toBe(200);
      const byAgent = await addEmail(agent, 'emily.desk@example.com');
      expect(byAgent.statusCode).toBe(403);
      expect(byAgent.json()).toMatchObject({ error: 'CONCIERGE_NOT_ALLOWED', fields: { email: 'holderOnly' } });
      expect(await aliasRow(emily.userId)).toBeUndefined();
      expect((await addEmail(emily.browser, 'emily.desk@example.com')).json()).toEqual({ alias: 'emily.desk@example.com', aliasType: 'EMAIL', proved: false });
      await jobsDone();
      const code = await gateway.latestCode('emily.desk@example.com');
      expect((await confirm(agent, 'emily.desk@example.com', code)).json().error).toBe('CONCIERGE_NOT_ALLOWED');
      expect((await confirm(emily.browser, 'emily.desk@example.com', code)).json()).toEqual({
        alias: 'emily.desk@example.com',
        aliasType: 'EMAIL',
        proved: true,
      });
    });
  });
});
