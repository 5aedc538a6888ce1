import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachDatabase, type TestDatabase } from '../support/database-legs';

// The small Database interface behaves the same on both engines (docs/decisions/0003-database-access.md).
describeEachDatabase((leg) => {
  let test: TestDatabase;
  beforeEach(async () => {
    test = await leg.open();
    await test.db.exec('create table notes (id int primary key, body text, born date, tags text[], extra jsonb)');
  });
  afterEach(() => test.dispose());

  it('runs parameterised queries and returns rows with the same types on both engines', async () => {
    await test.db.query('insert into notes values ($1, $2, $3, $4, $5)', [1, 'hello', '1990-05-17', ['a', 'b'], JSON.stringify({ x: 1 })]);
    const { rows } = await test.db.query('select id, body, born, tags, extra from notes');
    // A date stays its text (no time-zone shift); arrays and jsonb arrive as JS values.
    expect(rows).toEqual([{ id: 1, body: 'hello', born: '1990-05-17', tags: ['a', 'b'], extra: { x: 1 } }]);
  });

  it('commits a transaction that resolves', async () => {
    const result = await test.db.transaction(async (tx) => {
      await tx.query('insert into notes (id) values ($1)', [1]);
      await tx.query('insert into notes (id) values ($1)', [2]);
      return 'done';
    });
    expect(result).toBe('done');
    expect((await test.db.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 2 }]);
  });

  it('rolls back a transaction that throws, and rethrows its error', async () => {
    await expect(
      test.db.transaction(async (tx) => {
        await tx.query('insert into notes (id) values ($1)', [1]);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await test.db.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 0 }]);
  });

  it('runs a script of several statements with exec', async () => {
    await test.db.exec("insert into notes (id) values (1); insert into notes (id, body) values (2, 'two');");
    expect((await test.db.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 2 }]);
  });
});
