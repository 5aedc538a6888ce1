import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SAML_ACS_PARAMS, SAML_AUTHORIZE_QUERY, SAML_METADATA_PARAMS } from '../../../schemas/api/request-schemas';
import { changeNoticeOf, queueAccountNotice } from '../../account/account-notices';
import type { AuthServices } from '../../auth/auth-services';
import { rememberSignInDevice } from '../../auth/known-devices';
import { completeSignIn, deviceIdOf } from '../../auth/sign-in-answer';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../fixtures/load-fixtures';
import { HttpError } from '../../http/errors';
import type { JobQueue } from '../../jobs/job-queue';
import { findOrCreateSsoUser } from '../../sso/relying-party';
import { samlSiteOf, TEST_SAML_IDP_ENTITY_ID, type SamlSite } from '../../sso/saml-sites';
import {
  consumeSamlResponse,
  SamlRefusal,
  serviceProviderMetadata,
  startSamlSignIn,
  type SamlKeys,
  type ServiceProviderContext,
} from '../../sso/service-provider';
import { acsErrorHandler, sendAcsRefusal } from './acs-refusal';

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

export { samlStartPath } from './acs-refusal';

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

  app.get<{ Querystring: { siteId: string; last_visited_path?: string } }>(
    '/user-auth/saml/authorize',
    { config: { access: 'public' }, schema: { querystring: SAML_AUTHORIZE_QUERY } },
    async (request, reply) => {
      await auth.limits.countSignInCall(request.ip);
      const site = samlSite(request.query.siteId);
      const url = await startSamlSignIn(site, request.query.last_visited_path || undefined, context, auth.clock.now());
      reply.header('cache-control', 'no-store');
      return reply.redirect(browserUrlOf(url), 302);
    },
  );

  app.post<{ Params: { siteId: string }; Body: unknown }>(
    '/user-auth/saml/acs/:siteId',
    // The identity provider's page posts here (HTTP-POST binding): no XSRF header can come with it. The Response's
    // signature and its InResponseTo, spent once, are what it is checked by (ADR 0028).
    {
      config: { access: 'public', xsrfExempt: true },
      schema: { params: SAML_ACS_PARAMS },
      // Whatever else refuses the post (body limit, media type, rate limit, account rules, metadata) is the same page.
      errorHandler: acsErrorHandler(fixtures, ACS_BODY_LIMIT),
    },
    async (request, reply) => {
      await auth.limits.countSignInCall(request.ip);
      const site = samlSite(request.params.siteId);
      const now = auth.clock.now();
      const body = isTextRecord(request.body) ? request.body : {};
      try {
        const subject = await consumeSamlResponse(site, body, context, now);
        const grant = await findOrCreateSsoUser(db, site.siteId, subject);
        // ADR 0025: the identity provider's sign-in is the SSO site's proof, as for OIDC.
        await completeSignIn(db, auth, request, reply, { ...grant, proofs: [{ kind: 'sso' }] }, false);
        if ((await rememberSignInDevice(db, grant.userId, deviceIdOf(request, reply, now), now)) === 'new') {
          await queueAccountNotice(jobs, reply, { notice: 'new-device-sign-in', ...changeNoticeOf(request, auth, grant.userId, grant.siteId) });
        }
        reply.header('cache-control', 'no-store');
        return await reply.redirect(subject.lastVisitedPath ?? `/${site.siteId}/${site.locale}/account/profile`, 303);
      } catch (error) {
        if (error instanceof SamlRefusal) return refusalPage(request, reply, site, error);
        throw error;
      }
    },
  );

  app.get<{ Params: { siteId: string } }>(
    '/user-auth/saml/metadata/:siteId',
    { config: { access: 'public' }, schema: { params: SAML_METADATA_PARAMS } },
    async (request, reply) => {
      const site = samlSite(request.params.siteId);
      reply.header('content-type', 'application/samlmetadata+xml; charset=utf-8');
      return serviceProviderMetadata(site, options.samlKeys);
    },
  );

  /** Bad input (ADR 0028): a page in the site's language offering to start again; the log names the check, never the Response. */
  function refusalPage(request: FastifyRequest, reply: FastifyReply, site: SamlSite, refusal: SamlRefusal) {
    return sendAcsRefusal(request, reply, fixtures, site, refusal);
  }
}

/** The test identity provider's endpoints are on the gateway's own origin: a path for the browser, as for OIDC (ADR 0015). */
function browserUrlOf(url: string): string {
  const parsed = new URL(url);
  return parsed.origin === new URL(TEST_SAML_IDP_ENTITY_ID).origin ? `${parsed.pathname}${parsed.search}` : url;
}

function isTextRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && Object.values(value).every((field) => typeof field === 'string');
}
