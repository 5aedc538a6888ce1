import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One log line per request, written when it is answered: Fastify's `incoming request` line is
 * dropped and its `request completed` line names the call: `req` (method and path, never the query
 * string: `create-logger.ts`), the matched `route` (its pattern, absent for an unknown path), `res`
 * (status), `responseTime` in ms, the Fastify client error `code` when `http/errors.ts` answered one,
 * and the correlation id as `cid` (X-CID, `http/correlation-id.ts`).
 *
 * A subclass of Fastify's LogController rather than its `disableRequestLogging` and an `onResponse`
 * hook: that option would also silence Fastify's other per-request lines (a failed serialiser, a
 * response stream that broke), which stay as they are.
 */
export class RequestLogController extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'cid' });
  }

  override incomingRequest(): void {
    // The request's line is written once it is answered (requestCompleted).
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    logAnswer(request, reply, reply.elapsedTime, error);
  }
}

/**
 * The line of a request Fastify refused before routing (`frameworkErrors`: a bad percent-encoding,
 * an over-long path segment). Fastify runs neither hooks nor `requestCompleted` for those, so the
 * handler that answers them (`http/errors.ts`) calls this before sending; the time runs from here.
 */
export function logAnswerBeforeRouting(request: FastifyRequest, reply: FastifyReply): void {
  const started = performance.now();
  reply.raw.once('finish', () => {
    logAnswer(request, reply, performance.now() - started);
  });
}

function logAnswer(request: FastifyRequest, reply: FastifyReply, responseTime: number, error?: Error | null): void {
  const line = { req: request, route: request.routeOptions.url, res: reply, responseTime };
  if (error) reply.log.error({ ...line, err: error }, 'request errored');
  else reply.log.info(line, 'request completed');
}
