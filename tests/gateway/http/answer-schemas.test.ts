import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ANSWER_SCHEMA_MISMATCH, firstDifference, guardAnswerSerialisation } from '../../../gateway/http/answer-schemas';

/**
 * ADR 0023 "Answers": Fastify serialises each answer with its contract schema, which drops undeclared members and
 * coerces values; in test mode a guard compares the serialised answer with the built one and refuses a difference.
 * That each gateway route gets its contract schema is held by api-contract.test.ts; that the schemas are whole, by
 * every gateway and browser test, which run the gateway in test mode.
 */

const SECRET = 'secret-value-never-logged';

/** A Fastify with the guard, whose log lines are kept, and routes whose schemas are whole or not. */
function guardedApp(lines: string[]): FastifyInstance {
  const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => lines.push(line) } } });
  guardAnswerSerialisation(app);
  const whole = {
    type: 'object',
    required: ['id', 'token'],
    properties: { id: { type: 'string' }, token: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
  } as const;
  app.get('/whole', { schema: { response: { 200: whole } } }, async () => ({ tags: ['a', 'b'], token: SECRET, id: 'x' }));
  app.get('/missing-member', { schema: { response: { 200: { type: 'object', properties: { id: { type: 'string' } } } } } }, async () => ({
    id: 'x',
    token: SECRET,
  }));
  app.get('/coerced', { schema: { response: { 200: whole } } }, async () => ({ id: 'x', token: null }));
  app.get('/text', async (_request, reply) => reply.type('application/json').send('{"sent":"as is"}'));
  return app;
}

describe('the test-mode answer guard (gateway/http/answer-schemas.ts)', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
  });

  it('an answer its schema serialises whole passes untouched', async () => {
    const lines: string[] = [];
    app = guardedApp(lines);
    const response = await app.inject({ method: 'GET', url: '/whole' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 'x', token: SECRET, tags: ['a', 'b'] });
    expect(lines).toEqual([]);
  });

  it('a member the schema does not declare answers 500 ANSWER_SCHEMA_MISMATCH and logs one line naming the route and the path, never the value', async () => {
    const lines: string[] = [];
    app = guardedApp(lines);
    const response = await app.inject({ method: 'GET', url: '/missing-member' });
    expect(response.statusCode).toBe(500);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual({ error: ANSWER_SCHEMA_MISMATCH, message: 'The answer schema of GET /missing-member drops or changes $.token.' });
    expect(response.body).not.toContain(SECRET);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 50, route: 'GET /missing-member', path: '$.token' });
    expect(lines[0]).not.toContain(SECRET);
  });

  it('a value the schema coerces (null written as "") is refused too', async () => {
    const lines: string[] = [];
    app = guardedApp(lines);
    const response = await app.inject({ method: 'GET', url: '/coerced' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ error: ANSWER_SCHEMA_MISMATCH });
    expect(JSON.parse(lines[0]!)).toMatchObject({ route: 'GET /coerced', path: '$.token' });
  });

  it('a payload sent as text is not serialised, so not compared', async () => {
    const lines: string[] = [];
    app = guardedApp(lines);
    const response = await app.inject({ method: 'GET', url: '/text' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('{"sent":"as is"}');
    expect(lines).toEqual([]);
  });

  it('finds the first differing path, key order free', () => {
    expect(firstDifference({ b: [1, { c: 2 }], a: 1 }, { a: 1, b: [1, { c: 2 }] }, '$')).toBeNull();
    expect(firstDifference({ a: [1, { c: 2 }] }, { a: [1, { c: '2' }] }, '$')).toBe('$.a[1].c');
    expect(firstDifference({ a: [1, 2] }, { a: [1] }, '$')).toBe('$.a[1]');
    expect(firstDifference({ a: {} }, { a: [] }, '$')).toBe('$.a');
    expect(firstDifference({ a: 1 }, { a: 1, b: 2 }, '$')).toBe('$.b');
  });
});
