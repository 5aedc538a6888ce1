import type { FastifyContextConfig, FastifySchema } from 'fastify';
import type { RouteContract } from '../../schemas/api/contract';
import { contractEntry } from '../../schemas/api/routes';

/** What a route adds to its contract entry's access (ADR 0009, ADR 0025): never the access itself. */
export type RouteConfigBeyondContract = Omit<FastifyContextConfig, 'access'>;

/**
 * A route's method, URL, access and schemas, all from its one contract entry (schemas/api/routes.ts, ADR 0017
 * "Declared access", ADR 0023): a route file writes `app.route({ ...fromContract('POST /user-auth/login'), handler })`
 * and declares nothing of its contract a second time. The entry is named by `METHOD url` as the contract writes it, or
 * given whole (the card calls, whose paths come from the site files); a name with no entry stops the gateway at start.
 * The answer of the entry's status is serialised with its answer schema, a JSON answer only: a stylesheet, the app's
 * files or a redirect are sent as the route builds them.
 */
export function fromContract(entry: RouteContract | string, config: RouteConfigBeyondContract = {}) {
  const { method, url, access, request, response } = typeof entry === 'string' ? contractEntry(entry) : entry;
  const schema: FastifySchema = {};
  if (request?.params !== undefined) schema.params = request.params;
  if (request?.querystring !== undefined) schema.querystring = request.querystring;
  if (request?.body !== undefined) schema.body = request.body;
  if (response.schema !== undefined && response.mediaType === undefined) schema.response = { [response.status]: response.schema };
  return { method, url, config: { ...config, access }, schema };
}
