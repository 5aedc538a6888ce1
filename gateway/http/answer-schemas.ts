import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastJson, { type Schema } from 'fast-json-stringify';
import type { ErrorBody } from '../../schemas/api/error-body';

/**
 * ADR 0023 "Answers serialised with the contract": each route carries the answer schema of its contract entry
 * (`fromContract`, gateway/http/route-contract.ts), and Fastify writes that answer with fast-json-stringify, which drops
 * members a schema does not declare and coerces values to the declared type; `guardAnswerSerialisation` proves in test
 * mode that it changes nothing.
 */
export function serialiseAnswersWithContract(app: FastifyInstance): void {
  app.setSerializerCompiler(({ schema }) => serializerFor(schema as Schema));
}

/**
 * One compiled serialiser per answer schema in this process: the schemas are the contract's constants, and
 * compiling them again for every gateway built (the gateway tests build one per test) took about a third of a
 * build's time. fast-json-stringify's own defaults, as Fastify's compiler uses them (no shared schemas here).
 */
const serializers = new Map<string, (answer: unknown) => string>();
function serializerFor(schema: Schema): (answer: unknown) => string {
  const key = JSON.stringify(schema);
  let serializer = serializers.get(key);
  if (serializer === undefined) {
    serializer = fastJson(schema);
    serializers.set(key, serializer);
  }
  return serializer;
}

/** The machine code of a test-mode answer whose serialisation lost or changed something. */
export const ANSWER_SCHEMA_MISMATCH = 'ANSWER_SCHEMA_MISMATCH';

/** What each route built, as JSON would carry it, until `onSend` compares it with what was serialised. */
const builtAnswers = new WeakMap<FastifyRequest, unknown>();

/**
 * Test mode only (ADR 0018): every answer serialised from an object is compared with the object the route built
 * (as `JSON.stringify` would send it), key order free. A difference means an answer schema drops or coerces a member:
 * one error line names the route and the first differing path (never the values: they may be secrets), and the
 * call answers 500 ANSWER_SCHEMA_MISMATCH, so every gateway and browser test in test mode proves the schemas whole.
 */
export function guardAnswerSerialisation(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, _reply, payload) => {
    builtAnswers.set(request, JSON.parse(JSON.stringify(payload)) as unknown);
    return payload;
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!builtAnswers.has(request) || typeof payload !== 'string') return payload;
    const built = builtAnswers.get(request);
    builtAnswers.delete(request);
    const path = firstDifference(built, JSON.parse(payload), '$');
    if (path === null) return payload;
    const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
    request.log.error({ route, path }, `${route}: the serialised answer differs from the built one at ${path}; its answer schema is incomplete`);
    const body: ErrorBody = { error: ANSWER_SCHEMA_MISMATCH, message: `The answer schema of ${route} drops or changes ${path}.` };
    reply.code(500).type('application/json; charset=utf-8');
    return JSON.stringify(body);
  });
}

/** The JSON path of the first place where two JSON values differ, or null when they are equal. */
export function firstDifference(expected: unknown, actual: unknown, path: string): string | null {
  if (Array.isArray(expected) || Array.isArray(actual)) {
    if (!Array.isArray(expected) || !Array.isArray(actual)) return path;
    for (let index = 0; index < Math.max(expected.length, actual.length); index++) {
      if (index >= expected.length || index >= actual.length) return `${path}[${String(index)}]`;
      const difference = firstDifference(expected[index], actual[index], `${path}[${String(index)}]`);
      if (difference !== null) return difference;
    }
    return null;
  }
  if (isObject(expected) && isObject(actual)) {
    for (const key of [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort()) {
      if (!(key in expected) || !(key in actual)) return `${path}.${key}`;
      const difference = firstDifference(expected[key], actual[key], `${path}.${key}`);
      if (difference !== null) return difference;
    }
    return null;
  }
  return Object.is(expected, actual) ? null : path;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
