import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { changeNoticeOf, queueAccountNotice } from '../../account/account-notices';
import type { AuthServices } from '../../auth/auth-services';
import { rememberSignInDevice } from '../../auth/known-devices';
import { completeSignIn, deviceIdOf } from '../../auth/sign-in-answer';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import { expireCookies, isHttps, readCookies, serializeCookie } from '../../auth/session-cookies';
import { HttpError } from '../../http/errors';
import { escapeHtml } from '../../http/html-text';
import type { JobQueue } from '../../jobs/job-queue';
import { findOrCreateSsoUser } from '../../sso/relying-party';
import { samlBrowserUrlOf, samlSiteOf, type SamlSite } from '../../sso/saml-sites';
import {
  consumeSamlResponse,
  SAML_REQUEST_TTL_SECONDS,
  SamlRefusal,
  serviceProviderMetadata,
  startSamlSignIn,
  type SamlKeys,
  type ServiceProviderContext,
} from '../../sso/service-provider';
import { acsErrorHandler, sendAcsRefusal } from './acs-refusal';
import { consumeLogoutResponse, rememberSamlSession } from '../../sso/single-logout';
import { plainPage, ssoText } from '../../sso/sso-pages';
import { randomToken } from '../../sso/sso-sites';
import { fromContract } from '../../http/route-contract';

/**
 * httpOnly cookie binding a SAML sign-in to the browser that started it (ADR 0028 "Login CSRF"): its nonce's hash is
 * kept with the AuthnRequest and the Response must come back with it. `SameSite=None` over https, since the
 * identity provider's page posts to the ACS cross-site and a Lax cookie would stay behind.
 */
export const SAML_BINDING_COOKIE = 'gmap_saml_binding';
const BINDING = /^[A-Za-z0-9_-]{43}$/;

/**
 * The ACS form's limit (ADR 0028 "Before the signature"). A Response signed on the Response and the Assertion, each
 * signature carrying its certificate, is 5–20 KB of XML (the test provider's, without certificates: 4 KB), a third
 * more as base64 and a little more form-encoded; 64 KiB leaves room for an encrypted assertion and a long attribute
 * list, and bounds the text the guard and the parser read.
 */
export const ACS_BODY_LIMIT = 64 * 1024;

export interface SamlRouteOptions {
  db: Database;
  fixtures: Fixtures;
  auth: AuthServices;
  jobs: JobQueue;
  gateway: FastifyInstance;
  development: boolean;
  samlKeys: SamlKeys;
}

/** The site's redirect-sso page: after a single logout it says the holder is signed out (src/auth/signed-out-mark.ts). */
const signInPagePath = (site: SamlSite) => `/${site.siteId}/${site.locale}/account/redirect-sso`;

/**
 * SPEC §7 "SAML SSO session and assertion" (docs/decisions/0028-sso-saml.md): the start (an AuthnRequest to the
 * site's identity provider), the assertion consumer service (HTTP-POST; signed in, or a page saying the sign-in
 * failed) and the site's SP metadata.
 */
export async function samlRoutes(app: FastifyInstance, options: SamlRouteOptions): Promise<void> {
  const { db, fixtures, auth, jobs } = options;
  const context: ServiceProviderContext = { db, gateway: options.gateway, development: options.development, keys: options.samlKeys };
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: ACS_BODY_LIMIT }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  function samlSite(siteId: string): SamlSite {
    const site = fixtures.sites.get(siteId);
    const saml = site ? samlSiteOf(site.config) : null;
    if (!saml) throw new HttpError(400, 'SSO_NOT_ENABLED', 'siteId names no site that signs in with SAML.', { siteId: 'invalid' });
    return saml;
  }

  app.route<{ Querystring: { siteId: string; last_visited_path?: string } }>({
    ...fromContract('GET /user-auth/saml/authorize'),
    handler: async (request, reply) => {
      await auth.limits.countSignInCall(request.ip);
      const site = samlSite(request.query.siteId);
      const now = auth.clock.now();
      // One nonce per browser, kept while sign-ins are started: a sign-in begun in a second tab leaves the first valid.
      const kept = readCookies(request).get(SAML_BINDING_COOKIE);
      const binding = kept !== undefined && BINDING.test(kept) ? kept : randomToken();
      const url = await startSamlSignIn(site, request.query.last_visited_path || undefined, binding, context, now);
      const secure = isHttps(request);
      reply.header(
        'set-cookie',
        serializeCookie(SAML_BINDING_COOKIE, binding, {
          httpOnly: true,
          secure,
          crossSite: true,
          expires: new Date(now.getTime() + SAML_REQUEST_TTL_SECONDS * 1000),
        }),
      );
      reply.header('cache-control', 'no-store');
      return reply.redirect(samlBrowserUrlOf(url), 302);
    },
  });

  app.route<{ Params: { siteId: string }; Body: unknown }>({
    ...fromContract('POST /user-auth/saml/acs/:siteId', { xsrfExempt: true }),
    // Whatever else refuses the post (body limit, media type, rate limit, account rules, metadata) is the same page.
    errorHandler: acsErrorHandler(fixtures, ACS_BODY_LIMIT),
    handler: async (request, reply) => {
      await auth.limits.countSignInCall(request.ip);
      const site = samlSite(request.params.siteId);
      const now = auth.clock.now();
      const body = isTextRecord(request.body) ? request.body : {};
      try {
        const subject = await consumeSamlResponse(site, body, readCookies(request).get(SAML_BINDING_COOKIE), context, now);
        const grant = await findOrCreateSsoUser(db, site.siteId, subject);
        // ADR 0025: the identity provider's sign-in is the SSO site's proof, as for OIDC.
        // Who the provider named, kept with the session for the single logout's LogoutRequest.
        await completeSignIn(db, auth, request, reply, { ...grant, proofs: [{ kind: 'sso' }] }, false, (sessionId) =>
          rememberSamlSession(db, sessionId, site.siteId, subject),
        );
        if ((await rememberSignInDevice(db, grant.userId, deviceIdOf(request, reply, now), now)) === 'new') {
          await queueAccountNotice(jobs, reply, { notice: 'new-device-sign-in', ...changeNoticeOf(request, auth, grant.userId, grant.siteId) });
        }
        expireCookies(request, reply, [SAML_BINDING_COOKIE]);
        reply.header('cache-control', 'no-store');
        return await reply.redirect(subject.lastVisitedPath ?? `/${site.siteId}/${site.locale}/account/profile`, 303);
      } catch (error) {
        if (error instanceof SamlRefusal) return refusalPage(request, reply, site, error);
        // The route's error handler makes the rest a page too (ADR 0014: an agent's account is told so there).
        throw error;
      }
    },
  });

  app.route<{ Params: { siteId: string } }>({
    ...fromContract('GET /user-auth/saml/slo/:siteId'),
    handler: async (request, reply) => {
      const site = samlSite(request.params.siteId);
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
      try {
        await consumeLogoutResponse(site, query, context, auth.clock.now());
      } catch (error) {
        if (!(error instanceof SamlRefusal)) throw error;
        request.log.warn({ siteId: site.siteId, samlCheck: error.check }, `SAML logout response refused: ${error.check} check failed`);
        const text = (key: string) => ssoText(fixtures.content, site.locale, key);
        const body = `<p role="alert">${escapeHtml(text('error.signOut'))}</p>\n<p><a href="${escapeHtml(signInPagePath(site))}">${escapeHtml(text('signInAgain'))}</a></p>`;
        reply.code(error.statusCode).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store');
        return reply.send(plainPage(site.locale, text('signedOut'), body));
      }
      reply.header('cache-control', 'no-store');
      return reply.redirect(signInPagePath(site), 303);
    },
  });

  app.route<{ Params: { siteId: string } }>({
    ...fromContract('GET /user-auth/saml/metadata/:siteId'),
    handler: async (request, reply) => {
      const site = samlSite(request.params.siteId);
      reply.header('content-type', 'application/samlmetadata+xml; charset=utf-8');
      return serviceProviderMetadata(site, options.samlKeys);
    },
  });

  /** Bad input (ADR 0028): a page in the site's language offering to start again; the log names the check, never the Response. */
  function refusalPage(request: FastifyRequest, reply: FastifyReply, site: SamlSite, refusal: SamlRefusal) {
    return sendAcsRefusal(request, reply, fixtures, site, refusal);
  }
}

function isTextRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && Object.values(value).every((field) => typeof field === 'string');
}
