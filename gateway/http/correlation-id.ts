import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { containsCardNumber } from '../logging/scrub-secrets';

/** SPEC §7/§8: the correlation id travels in X-CID; clients show it in error banners. */
export const CORRELATION_ID_HEADER = 'X-CID';
const WELL_FORMED = /^[A-Za-z0-9-]{8,64}$/;

/**
 * Fastify's request id: the caller's X-CID when well formed (so one id follows a call across
 * services), else a new UUID. It is also the `cid` of every log line of the request, so it must
 * never read as a card number: the log scrubber would cut it, and a client could smuggle a PAN in.
 */
export function correlationIdFor(request: IncomingMessage): string {
  const incoming = request.headers['x-cid'];
  if (typeof incoming === 'string' && WELL_FORMED.test(incoming) && !containsCardNumber(incoming)) return incoming;
  return newCorrelationId();
}

/** A fresh UUID: the log scrubber knows the UUID shape and leaves it whole. */
export function newCorrelationId(): string {
  return randomUUID();
}

/** Every response, errors and 404s included, carries the request's X-CID. */
export function addCorrelationIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(CORRELATION_ID_HEADER, request.id);
  });
}
