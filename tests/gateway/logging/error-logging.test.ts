import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MASKED_VALUE, serializeError } from '../../../gateway/logging/serialize-error';
import { ANA_PASSWORD, firstbankUser, register, registrationBody } from '../support/account-requests';
import { capturingLogger } from '../support/capturing-logger';
import { describeEachDatabase } from '../support/database-legs';
import { openSignInGateway, type SignInGateway } from '../support/sign-in-gateway';
import { TestBrowser } from '../support/test-browser';

/**
 * DESIGN "Contracts" (no secret in a log): an error log line names what failed and where, never the
 * data. pg and PGlite errors carry the statement's parameters, its text and quoted rows; the
 * serialiser of gateway/logging/serialize-error.ts keeps none of them.
 */
const DATA_MEMBERS = [
  'params',
  'parameters',
  'query',
  'internalQuery',
  'detail',
  'where',
  'hint',
  'position',
  'internalPosition',
  'command',
  'args',
  'rawPacket',
  'raw',
];

const entriesOf = (lines: string[]) => lines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: Record<string, unknown> });

describeEachDatabase((leg) => {
  let gateway: SignInGateway;
  let lines: string[];
  beforeEach(async () => {
    const log = capturingLogger();
    lines = log.lines;
    gateway = await openSignInGateway(leg, { logger: log.logger });
  });
  afterEach(() => gateway.dispose());

  it('a database failure during registration is a 500 whose log line holds no e-mail, password hash, national id, date of birth or name', async () => {
    const user = firstbankUser({ email: 'log.secrets@example.com', first_name: 'Quintessa', nationalId: '536220871', dob: '1987-03-09' });
    // The statement that stores the job (its payload: the hash, the e-mail, the form) now fails in the database.
    await gateway.test.db.exec('alter table account_jobs rename to account_jobs_moved');
    const response = await register(await new TestBrowser(gateway.app).open(), registrationBody(user));
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ error: 'INTERNAL_ERROR' });

    const failure = entriesOf(lines).find((entry) => entry.msg === 'unexpected error');
    expect(failure?.err).toMatchObject({ code: '42P01', message: expect.stringContaining('account_jobs') });
    for (const member of DATA_MEMBERS) expect(failure?.err, member).not.toHaveProperty(member);
    const errorLines = lines.filter((line) => JSON.parse(line).level >= 50).join('\n');
    for (const secret of ['log.secrets@example.com', 'argon2', 'Quintessa', '536220871', '1987-03-09', ANA_PASSWORD, '(202) 555-0143'])
      expect(errorLines).not.toContain(secret);
  });

  it('a PostgreSQL data exception keeps its code and message, with the quoted value masked', async () => {
    const error = await gateway.test.db.query('select $1::int as n', ['secret-value-42']).then(
      () => null,
      (failure: unknown) => failure,
    );
    const serialized = serializeError(error);
    expect(serialized).toMatchObject({ code: '22P02', message: `invalid input syntax for type integer: ${MASKED_VALUE}` });
    expect(JSON.stringify(serialized)).not.toContain('secret-value-42');
    for (const member of DATA_MEMBERS) expect(serialized, member).not.toHaveProperty(member);
  });
});

describe('serializeError', () => {
  it('keeps type, message, stack and codes; drops any other member, a command and its arguments included', () => {
    const error = Object.assign(new Error('Connection is closed.'), {
      code: 'ECONNREFUSED',
      errno: -111,
      syscall: 'connect',
      command: { name: 'eval', args: ['gateway:limits:user:ana@example.com'] },
      address: '10.0.0.5',
    });
    const serialized = serializeError(error);
    expect(serialized).toEqual({
      type: 'Error',
      message: 'Connection is closed.',
      stack: expect.stringContaining('Connection is closed.'),
      code: 'ECONNREFUSED',
      errno: -111,
      syscall: 'connect',
    });
  });

  it('follows causes and aggregated errors a few levels, with the same rules', () => {
    const inner = Object.assign(new Error('inner'), { params: ['secret'] });
    const aggregate = new AggregateError([inner, new TypeError('second')], 'all failed');
    const serialized = serializeError(new Error('outer', { cause: aggregate }));
    expect(serialized.cause?.errors?.map((entry) => entry.message)).toEqual(['inner', 'second']);
    expect(JSON.stringify(serialized)).not.toContain('secret');
  });

  it('reads anything thrown, not only errors', () => {
    expect(serializeError('text')).toEqual({ type: 'string', message: 'text' });
    expect(serializeError(null)).toEqual({ type: 'object', message: 'null' });
  });
});
