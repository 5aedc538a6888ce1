import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isHttps, newXsrfToken, readCookies, serializeCookie, XSRF_COOKIE } from '../auth/session-cookies';
import { HttpError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Only the test-mode `test-support/*` routes: the browser tests' setup calls are not a browser's. */
    xsrfExempt?: boolean;
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * ADR 0008 "Sessions and CSRF", double submit: every state-changing call of the API scope this
 * is added to must carry X-XSRF-TOKEN equal to the XSRF-TOKEN cookie, which a page on another
 * origin can neither read nor set. Checked on request, before the body is read, so a refused call
 * does nothing at all (no session, no code sent). Unknown paths still answer their 404.
 */
export function requireXsrfHeader(api: FastifyInstance): void {
  api.addHook('onRequest', async (request) => {
    if (!STATE_CHANGING.has(request.method) || request.routeOptions.config.xsrfExempt === true) return;
    const cookie = readCookies(request).get(XSRF_COOKIE);
    const header = request.headers['x-xsrf-token'];
    if (cookie === undefined || cookie === '' || header === undefined || header === '') {
      throw new HttpError(403, 'XSRF_TOKEN_MISSING', 'Send the XSRF-TOKEN cookie value in the X-XSRF-TOKEN header.');
    }
    if (header !== cookie) throw new HttpError(403, 'XSRF_TOKEN_INVALID', 'The X-XSRF-TOKEN header does not match the XSRF-TOKEN cookie.');
  });
}

/**
 * ADR 0008: any response to a request without the XSRF-TOKEN cookie sets one (readable, SameSite=Lax,
 * for the browser session), so the first page load already equips the app for its first POST.
 * A response that sets or expires the cookie itself (sign-in, logout) is left alone.
 */
export function issueXsrfCookie(app: FastifyInstance): void {
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply) => {
    if (readCookies(request).has(XSRF_COOKIE)) return;
    const already = reply.getHeader('set-cookie');
    const lines = Array.isArray(already) ? already : already === undefined ? [] : [String(already)];
    if (lines.some((line) => line.startsWith(`${XSRF_COOKIE}=`))) return;
    reply.header('set-cookie', serializeCookie(XSRF_COOKIE, newXsrfToken(), { httpOnly: false, secure: isHttps(request) }));
  });
}
