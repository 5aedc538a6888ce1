/**
 * An error as a log line carries it: what says where and why it failed, never data. pg and PGlite
 * errors hold the statement (`query`, `internalQuery`), its values (`params`, `parameters`) and
 * texts that quote rows (`detail`, `where`, `hint`); ioredis errors hold the command and its
 * arguments; llhttp's hold the raw request. So the serialiser keeps a short list of members
 * instead of copying them all (pino's default), and masks the values a PostgreSQL data exception
 * quotes in its message (`invalid input syntax for type uuid: "…"`).
 */
export interface SerializedError {
  type: string;
  message: string;
  stack?: string;
  cause?: SerializedError;
  errors?: SerializedError[];
  [member: string]: unknown;
}

/** Members that name a code, a place in the schema or a system call, never a value. */
const KEPT_MEMBERS = ['code', 'statusCode', 'severity', 'routine', 'constraint', 'table', 'column', 'schema', 'dataType', 'errno', 'syscall'] as const;
/** How deep causes and aggregated errors are followed. */
const MAX_DEPTH = 3;
const MAX_AGGREGATED = 5;
/** SQLSTATE class 22, data exception: its messages quote the refused value. */
const DATA_EXCEPTION = /^22[0-9A-Z]{3}$/;
const QUOTED = /"(?:[^"\\]|\\.)*"/g;
export const MASKED_VALUE = '"[value]"';

export function serializeError(error: unknown, depth = 0): SerializedError {
  if (typeof error !== 'object' || error === null) return { type: typeof error, message: String(error) };
  const source = error as Record<string, unknown>;
  const message = typeof source.message === 'string' ? source.message : '';
  const safeMessage = isDataException(source) ? message.replace(QUOTED, MASKED_VALUE) : message;
  const serialized: SerializedError = { type: typeNameOf(error), message: safeMessage };
  if (typeof source.stack === 'string') serialized.stack = safeMessage === message ? source.stack : source.stack.split(message).join(safeMessage);
  for (const member of KEPT_MEMBERS) {
    const value = source[member];
    if (typeof value === 'string' || typeof value === 'number') serialized[member] = value;
  }
  if (depth < MAX_DEPTH) {
    if (source.cause !== undefined) serialized.cause = serializeError(source.cause, depth + 1);
    if (Array.isArray(source.errors)) serialized.errors = source.errors.slice(0, MAX_AGGREGATED).map((inner) => serializeError(inner, depth + 1));
  }
  return serialized;
}

function typeNameOf(error: object): string {
  const name = (error as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' ? name : 'Error';
}

function isDataException(source: Record<string, unknown>): boolean {
  return typeof source.severity === 'string' && typeof source.code === 'string' && DATA_EXCEPTION.test(source.code);
}
