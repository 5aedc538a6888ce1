import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify';
import type { ErrorBody } from '../../schemas/api/error-body';
import { logAnswerBeforeRouting } from '../logging/request-log';
import { withoutQuery } from '../logging/scrub-secrets';
import { CORRELATION_ID_HEADER, newCorrelationId } from './correlation-id';
import { securityHeaders } from './security-headers';

/** What some errors carry beyond code and message. */
export interface HttpErrorDetails {
  /** Extra body members, such as `attemptsLeft`. */
  extras?: Record<string, unknown>;
  /** Sent as the Retry-After header (423 and 429 of ADR 0008). */
  retryAfterSeconds?: number;
}

/** Thrown by routes for an answer that is not a success; the error handler turns it into JSON. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
    readonly details: HttpErrorDetails = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function sendError(reply: FastifyReply, statusCode: number, body: ErrorBody): FastifyReply {
  return reply.code(statusCode).type('application/json; charset=utf-8').send(body);
}

/** Machine codes for the client errors Fastify itself raises, by status. */
const CODE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'BAD_REQUEST',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

/** Fixed texts for Fastify's own errors: its messages can echo what the client sent. */
const MESSAGE_BY_FASTIFY_CODE: Readonly<Record<string, string>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty but its Content-Type says JSON.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is larger than the 1 MB limit.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'The Content-Type of the request body is not supported here.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body length does not match its Content-Length header.',
  FST_ERR_BAD_URL: 'The URL is not valid (bad percent-encoding).',
  FST_ERR_MAX_PARAM_LENGTH: 'A path segment of the URL is too long.',
};

/**
 * Maps every error to the JSON shape: schema validation -> 400 VALIDATION_FAILED naming each
 * field; any other client error keeps its 4xx status (DESIGN: never a 500 for bad input);
 * anything else is a 500 whose details go to the log only.
 */
export function handleError(error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof HttpError) {
    const { extras, retryAfterSeconds } = error.details;
    if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
    return sendError(reply, error.statusCode, { error: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}), ...extras });
  }
  if (error.validation) {
    const issues = error.validation.map((issue) => {
      const missing = issue.keyword === 'required' ? String(issue.params.missingProperty) : undefined;
      const field = missing ?? issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
      return missing === undefined
        ? { field, key: fieldKey(issue), text: `${field} ${ruleText(issue)}` }
        : { field, key: 'required', text: `${field} is required` };
    });
    const fields: Record<string, string> = {};
    for (const { field, key } of issues) {
      const held = fields[field];
      if (held === undefined || KEY_RANK.indexOf(key) < KEY_RANK.indexOf(held)) fields[field] = key;
    }
    const where = error.validationContext === 'querystring' ? 'query parameter' : (error.validationContext ?? 'request');
    return sendError(reply, 400, {
      error: 'VALIDATION_FAILED',
      message: `Invalid ${where}: ${issues.map((issue) => issue.text).join('; ')}.`,
      fields,
    });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // The code is enough to understand a client mistake (the message may quote the request); the request's one log line carries it.
    reply.log = reply.log.child({ code: error.code });
    return sendError(reply, status, {
      error: CODE_BY_STATUS[status] ?? 'BAD_REQUEST',
      message: MESSAGE_BY_FASTIFY_CODE[error.code] ?? 'The request cannot be processed.',
    });
  }
  request.log.error({ err: error }, 'unexpected error');
  return sendError(reply, 500, {
    error: 'INTERNAL_ERROR',
    message: `An unexpected error occurred. Quote ${CORRELATION_ID_HEADER} ${request.id} when reporting it.`,
  });
}

/**
 * The field key of one schema issue, the same key the shared form check answers for the same
 * value (SPEC §5 "Generic inputs", §8 "Form error keys"; gateway/auth/form-fields.ts): over
 * maxLength is `tooLong`, an empty value where one character is the least is `required`, anything
 * else `invalid` (no shared key says "too short" for a longer minimum).
 */
function fieldKey(issue: FastifySchemaValidationError): string {
  if (issue.keyword === 'maxLength') return 'tooLong';
  if (issue.keyword === 'minLength' && issue.params.limit === 1) return 'required';
  return 'invalid';
}

/** With every issue reported (allErrors), a field's key is its most telling one: an over-long value also fails its pattern. */
const KEY_RANK = ['required', 'tooLong', 'invalid'];

/** ajv's wording, with the allowed values spelled out where it only says "allowed values". */
function ruleText(issue: FastifySchemaValidationError): string {
  if (issue.keyword === 'enum') return `must be one of ${(issue.params.allowedValues as unknown[]).join(', ')}`;
  if (issue.keyword === 'const') return `must be ${String(issue.params.allowedValue)}`;
  return issue.message ?? 'is invalid';
}

/**
 * Errors Fastify raises before routing (bad percent-encoding, an over-long path segment); by
 * default it answers them with its own JSON that echoes the path. Its hooks do not run for them,
 * so the correlation id, the security headers and the request's log line are done here.
 */
export function handleFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  logAnswerBeforeRouting(request, reply);
  reply.header(CORRELATION_ID_HEADER, request.id);
  reply.headers(securityHeaders());
  handleError(error, request, reply);
}

/** The client errors Node's HTTP parser raises before Fastify sees a request, by its error code. */
const CLIENT_ERROR_ANSWERS: Readonly<Record<string, { status: number; code: string; message: string }>> = {
  HPE_HEADER_OVERFLOW: { status: 431, code: 'HEADERS_TOO_LARGE', message: 'The request headers are larger than the gateway accepts.' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'REQUEST_TIMEOUT', message: 'The request did not arrive in time.' },
};
const MALFORMED_REQUEST = { status: 400, code: 'BAD_REQUEST', message: 'The request is not valid HTTP.' };

/**
 * Fastify's `clientErrorHandler`: what the HTTP server answers to a request it cannot parse (a
 * malformed request line or header, headers too large, a timeout), in the gateway's JSON error shape
 * with a correlation id and the security headers every other answer carries. The log line names the
 * parser's code only: the error also holds the raw request, cookies and all.
 */
export function handleClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answer = CLIENT_ERROR_ANSWERS[error.code ?? ''] ?? MALFORMED_REQUEST;
  const correlationId = newCorrelationId();
  this.log.info({ cid: correlationId, code: error.code, statusCode: answer.status }, 'client error before routing');
  if (socket.writable) {
    const body = JSON.stringify({ error: answer.code, message: answer.message } satisfies ErrorBody);
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      [CORRELATION_ID_HEADER.toLowerCase()]: correlationId,
      ...securityHeaders(),
      connection: 'close',
    };
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${head}\r\n${body}`);
  }
  socket.destroy(error);
}

export function notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, 404, { error: 'NOT_FOUND', message: `${request.method} ${pathOf(request)} does not exist.` });
}

/** The path of the request without its query string (which may hold secrets). */
export function pathOf(request: FastifyRequest): string {
  return withoutQuery(request.url);
}
