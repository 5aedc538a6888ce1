import type { FastifyInstance } from 'fastify';

/**
 * README "Stopping": whether the gateway has begun to close (`app.close()`, on SIGTERM in `main.ts`).
 * Readiness reads it to answer not-ready at once (`features/content-config/health.ts`).
 */
export interface DrainState {
  readonly closing: boolean;
}

/**
 * From the moment `app.close()` begins: `onBegin` runs (the job queue stops taking jobs), and every
 * answer carries `Connection: close`, so each keep-alive connection ends with the answer it is busy
 * with. Without it a connection that was busy when closing began goes back to idle and Node keeps it
 * for the 72 s keep-alive timeout, far past the grace period. Fastify closes the idle connections
 * itself (`forceCloseConnections: 'idle'`) and marks answers to requests routed after closing began;
 * this covers the requests already in a handler.
 */
export function drainOnClose(app: FastifyInstance, onBegin: () => void): DrainState {
  const state = { closing: false };
  app.addHook('preClose', async () => {
    state.closing = true;
    onBegin();
  });
  app.addHook('onSend', async (request, reply, payload) => {
    // HTTP/2 has no Connection header; the gateway serves HTTP/1.1, so this is every answer.
    if (state.closing && request.raw.httpVersionMajor < 2) reply.header('connection', 'close');
    return payload;
  });
  return state;
}
