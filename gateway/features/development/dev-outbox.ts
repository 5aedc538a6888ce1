import type { FastifyInstance } from 'fastify';
import type { DevOutbox } from '../../mail/mailer';
import { fromContract } from '../../http/route-contract';

/**
 * ADR 0008 `GET dev-outbox/messages?to=`: the development outbox as JSON, newest first, so a
 * developer or a browser test reads the passcode it was sent. Registered only while no SMTP_URL
 * is configured: with real mail there is nothing here to read.
 */
export async function devOutboxRoutes(app: FastifyInstance, options: { outbox: DevOutbox }): Promise<void> {
  app.route<{ Querystring: { to: string } }>({
    ...fromContract('GET /dev-outbox/messages'),
    handler: async (request) => ({ messages: await options.outbox.messagesTo(request.query.to) }),
  });
}
