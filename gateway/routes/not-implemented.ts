import type { FastifyInstance, HTTPMethods } from 'fastify';
import { pathOf, sendError } from '../http/errors';

/** For the "Declared" rows of SPEC §7, whose method is not shown. */
const ANY_METHOD: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface PlannedCall {
  method: HTTPMethods | HTTPMethods[];
  path: string;
}

/**
 * Every gateway call of SPEC §7's table that a later issue implements, so the app gets a clear
 * NOT_IMPLEMENTED instead of a bare 404 meanwhile. Delete a row when its route lands.
 * Not listed, because §7 gives no path: the SAML SSO session and assertion calls, the OIDC
 * logout on the app base, and the capture module's validate/delete/set-default/remove methods.
 */
export const PLANNED_GATEWAY_CALLS: readonly PlannedCall[] = [
  // user-auth
  { method: ANY_METHOD, path: 'user-auth/auth/user-token' },
  { method: ANY_METHOD, path: 'user-auth/auth/refresh-token' },
  // user-mgmt
  { method: 'POST', path: 'user-mgmt/user/alias' },
  // user-attribute
  { method: ANY_METHOD, path: 'assets/validation' },
];

/** SPEC §7 promotions-hosts variant: a page-root path, `{locale}/account/configurations/promotions-{locale}.json`. */
export const PLANNED_PAGE_CALLS: readonly PlannedCall[] = [{ method: 'GET', path: ':locale/account/configurations/*' }];

/** Registers `calls` (relative to the plugin's prefix) answering 404 NOT_IMPLEMENTED. */
export async function notImplementedRoutes(app: FastifyInstance, options: { calls: readonly PlannedCall[] }): Promise<void> {
  // Accept any body type these calls will take (multipart, form, JSON), so the answer does not
  // depend on it; the body is read within the size limit and dropped. Malformed JSON is still a 400.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));

  for (const call of options.calls) {
    app.route({
      method: call.method,
      url: `/${call.path}`,
      config: { access: 'public' },
      handler: async (request, reply) =>
        sendError(reply, 404, { error: 'NOT_IMPLEMENTED', message: `${request.method} ${pathOf(request)} is not available yet.` }),
    });
  }
}
