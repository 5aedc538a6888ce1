import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database';
import { sendError } from '../../http/errors';

/** Liveness for load balancers and the start-up wait of tests: the gateway is up and its database answers. */
export async function healthRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  const { db } = options;
  app.get('/health', { config: { access: 'public' } }, async (request, reply) => {
    try {
      await db.query('select 1');
    } catch (error) {
      request.log.error({ err: error }, 'health check: database unavailable');
      return sendError(reply, 503, { error: 'DATABASE_UNAVAILABLE', message: 'The database does not answer.' });
    }
    return { status: 'ok', database: db.kind };
  });
}
