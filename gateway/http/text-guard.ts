import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isStorableText } from '../../schemas/validators/characters';
import { HttpError } from './errors';

/**
 * docs/decisions/0005-validators.md "Characters": no string the gateway is sent may hold a control
 * character or a lone surrogate (PostgreSQL refuses NUL and lone surrogates, the rest break logs and
 * mails). One check for every route, before its schema and its handler: 400 VALIDATION_FAILED naming
 * each path with `invalidCharacter`, the key the browser's form shows next to the field.
 */

/** The headers the gateway reads as text (SPEC §7 X-SITE-ID, the captcha token it forwards). */
const TEXT_HEADERS = ['x-site-id', 'x-hcaptcha-token'] as const;
/** A refusal names at most this many paths; a key is named by at most this many characters. */
const MAX_NAMED_PATHS = 20;
const MAX_KEY_LENGTH = 64;

export function refuseUnstorableText(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const paths = unstorablePaths(request);
    if (paths.length > 0) {
      throw new HttpError(
        400,
        'VALIDATION_FAILED',
        `These fields hold a control character or an unpaired surrogate: ${paths.join(', ')}.`,
        Object.fromEntries(paths.map((path) => [path, 'invalidCharacter'])),
      );
    }
  });
}

/** Where the request's text holds what no field may hold: header names, then parameters, query and body paths. */
export function unstorablePaths(request: FastifyRequest): string[] {
  const paths: string[] = [];
  for (const header of TEXT_HEADERS) {
    const value = request.headers[header];
    if (value !== undefined && [value].flat().some((text) => !isStorableText(text))) paths.push(header);
  }
  collect(request.params, '', paths);
  collect(request.query, '', paths);
  collect(request.body, '', paths);
  return paths.slice(0, MAX_NAMED_PATHS);
}

/** Walks a parsed value breadth first, keys included, without recursion (a body may nest thousands deep). */
function collect(root: unknown, rootPath: string, paths: string[]): void {
  const pending: [value: unknown, path: string][] = [[root, rootPath]];
  for (let next = 0; next < pending.length && paths.length < MAX_NAMED_PATHS; next++) {
    const [value, path] = pending[next]!;
    if (typeof value === 'string') {
      if (!isStorableText(value)) paths.push(path === '' ? 'body' : path);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => pending.push([item, join(path, String(index))]));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        const itemPath = join(path, printableKey(key));
        if (!isStorableText(key)) paths.push(itemPath);
        pending.push([item, itemPath]);
      }
    }
  }
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** A key as an answer may name it: bounded, each control character or surrogate shown as U+FFFD. */
function printableKey(key: string): string {
  const bounded = key.slice(0, MAX_KEY_LENGTH);
  return isStorableText(bounded) ? bounded : [...bounded].map((character) => (isStorableText(character) ? character : '\uFFFD')).join('');
}
