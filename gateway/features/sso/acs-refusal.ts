import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Fixtures } from '../../site-files/load-fixtures';
import { handleError, HttpError } from '../../http/errors';
import { escapeHtml } from '../../http/html-text';
import { samlSiteOf, type SamlSite } from '../../sso/saml-sites';
import { SamlRefusal } from '../../sso/service-provider';
import { plainPage, ssoText } from '../../sso/sso-pages';

/**
 * Every refusal a browser meets at the assertion consumer service (docs/decisions/0028-sso-saml.md "Bad input"): the
 * identity provider's page posted there, so the browser shows whatever is answered. A page in the site's language with
 * the status, the machine code on the alert (`data-error`) and a link that starts the sign-in again; the JSON error
 * body instead when the client asks for JSON and not HTML (an API client or a test of the machine code).
 */

/** The texts of `sso` telling the holder why, by machine code; any other refusal is `error.failed` ("try again"). */
const TEXT_BY_CODE: Readonly<Record<string, string>> = {
  SSO_ACCOUNT_ELSEWHERE: 'error.accountElsewhere',
  SSO_ACCOUNT_NOT_CARDHOLDER: 'error.notCardholder',
};

/** Fastify's own refusals before the handler runs, with a text that states the ACS's own limit. */
function frameworkRefusal(error: FastifyError, bodyLimit: number): HttpError | null {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new HttpError(413, 'PAYLOAD_TOO_LARGE', `The SAML response is larger than the ${bodyLimit / 1024} KiB limit of the assertion consumer service.`);
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'The assertion consumer service takes a form (application/x-www-form-urlencoded).');
  if (error.validation) return new HttpError(400, 'VALIDATION_FAILED', 'The request to the assertion consumer service is not valid.');
  return null;
}

const wantsJson = (request: FastifyRequest) => {
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
};

/** The start's path, for the refusal page's "start again" link. */
export const samlStartPath = (siteId: string) => `/api/user-auth/saml/authorize?siteId=${encodeURIComponent(siteId)}`;

/** The page for `refusal` at `site`'s assertion consumer service. */
export function sendAcsRefusal(request: FastifyRequest, reply: FastifyReply, fixtures: Fixtures, site: SamlSite, refusal: HttpError): FastifyReply {
  if (refusal instanceof SamlRefusal) {
    request.log.warn({ siteId: site.siteId, samlCheck: refusal.check }, `SAML response refused: ${refusal.check} check failed`);
  } else {
    request.log.warn({ siteId: site.siteId, code: refusal.code }, `SAML sign-in refused: ${refusal.code}`);
  }
  reply.header('cache-control', 'no-store');
  if (refusal.details.retryAfterSeconds !== undefined) reply.header('retry-after', String(refusal.details.retryAfterSeconds));
  if (wantsJson(request)) return handleError(refusal, request, reply);
  const text = (key: string) => ssoText(fixtures.content, site.locale, key);
  // ADR 0028 "Login CSRF": a Response that came back to another browser than the one that started the sign-in.
  const textKey = refusal instanceof SamlRefusal && refusal.check === 'browser' ? 'error.otherBrowser' : (TEXT_BY_CODE[refusal.code] ?? 'error.failed');
  const body = `<p role="alert" data-error="${escapeHtml(refusal.code)}">${escapeHtml(text(textKey))}</p>\n<p><a href="${escapeHtml(samlStartPath(site.siteId))}">${escapeHtml(text('startAgain'))}</a></p>`;
  reply.code(refusal.statusCode).header('content-type', 'text/html; charset=utf-8');
  return reply.send(plainPage(site.locale, text('title.signInFailed'), body));
}

/**
 * The ACS route's error handler: what its handler did not turn into a page itself (an over-large or wrongly typed body,
 * the per-IP limit, an account SSO may not sign into, unreachable metadata) becomes the same page. A site that does not
 * sign in with SAML, and a 500, stay the gateway's JSON errors: there is no site to start again at, or nothing to say.
 */
export function acsErrorHandler(fixtures: Fixtures, bodyLimit: number) {
  return (error: FastifyError | HttpError, request: FastifyRequest<{ Params: { siteId?: string } }>, reply: FastifyReply): void => {
    const config = fixtures.sites.get(request.params.siteId ?? '')?.config;
    const site = config ? samlSiteOf(config) : null;
    const refusal = error instanceof HttpError ? error : frameworkRefusal(error, bodyLimit);
    if (site === null || refusal === null) handleError(error, request, reply);
    else sendAcsRefusal(request, reply, fixtures, site, refusal);
  };
}
