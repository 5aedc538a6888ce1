import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { isStorableText } from '../../schemas/validators/characters';
import { HttpError } from '../http/errors';

/** One text field of a sign-in form: its longest accepted value and its shape. */
export interface FieldRule {
  maxLength: number;
  required?: boolean;
  pattern?: RegExp;
}

export type FieldRules = Record<string, FieldRule>;

/** Bounds for the whole multipart body (its parser ignores Fastify's bodyLimit): no files, few small fields. */
const MULTIPART_LIMITS = { fieldNameSize: 64, fieldSize: 4096, fields: 24, files: 0, parts: 24 } as const;

/**
 * Lets an auth route read the SPEC §3 login payload as `multipart/form-data` (the app's FormData)
 * or `application/x-www-form-urlencoded` (the §7 pre-auth "form"). Registered per plugin.
 */
export async function acceptFormBodies(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { limits: MULTIPART_LIMITS });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
}

/**
 * The form's fields by `rules`, or 400 VALIDATION_FAILED naming each problem (ADR 0008): missing,
 * too long, malformed, repeated, a file, or a body that is neither form type. A broken multipart
 * stream is the same 400, never a 500. Fields not in `rules` are ignored.
 */
export async function readFormFields(request: FastifyRequest, rules: FieldRules): Promise<Record<string, string>> {
  const raw = new Map<string, string>();
  const problems: Record<string, string> = {};
  if (request.isMultipart()) {
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') throw new HttpError(400, 'VALIDATION_FAILED', 'The form must not carry files.', { [part.fieldname]: 'invalid' });
        if (raw.has(part.fieldname)) problems[part.fieldname] = 'invalid';
        if (part.valueTruncated) problems[part.fieldname] = 'tooLong';
        raw.set(part.fieldname, typeof part.value === 'string' ? part.value : String(part.value));
      }
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw new HttpError(400, 'VALIDATION_FAILED', 'The multipart body is malformed or over its limits.', { body: 'invalid' });
    }
  } else if (isPlainObject(request.body) && request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
    for (const [name, value] of Object.entries(request.body)) raw.set(name, String(value));
  } else {
    throw new HttpError(400, 'VALIDATION_FAILED', 'The body must be multipart/form-data.', { body: 'invalid' });
  }

  const fields: Record<string, string> = {};
  for (const [name, rule] of Object.entries(rules)) {
    const value = raw.get(name);
    if (problems[name] !== undefined) continue;
    if (value === undefined || value === '') {
      if (rule.required) problems[name] = 'required';
    } else if (value.length > rule.maxLength) problems[name] = 'tooLong';
    // ADR 0005 "Characters": multipart fields are read here, after the request-wide guard.
    else if (!isStorableText(value)) problems[name] = 'invalidCharacter';
    else if (rule.pattern && !rule.pattern.test(value)) problems[name] = 'invalid';
    else fields[name] = value;
  }
  const named = Object.keys(problems).filter((name) => name in rules);
  if (named.length > 0) {
    const reported = Object.fromEntries(named.map((name) => [name, problems[name] ?? 'invalid']));
    throw new HttpError(400, 'VALIDATION_FAILED', `Invalid form: ${named.map((name) => `${name} ${reported[name]}`).join('; ')}.`, reported);
  }
  return fields;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
