import type { FastifyInstance } from 'fastify';
import { changeNoticeOf, queueAccountNotice } from '../../account/account-notices';
import type { AuthServices } from '../../auth/auth-services';
import { rememberSignInDevice } from '../../auth/known-devices';
import { expireCookies, isHttps, readCookies, serializeCookie } from '../../auth/session-cookies';
import type { SSO_SIGN_IN_ANSWER } from '../../../schemas/api/response-schemas';
import type { SchemaType } from '../../../schemas/api/schema-type';
import { completeSignIn, deviceIdOf } from '../../auth/sign-in-answer';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import { HttpError } from '../../http/errors';
import type { JobQueue } from '../../jobs/job-queue';
import type { SsoCredentials } from '../../sso/client-credentials';
import { issuerTransportFor } from '../../sso/issuer-transport';
import {
  findOrCreateSsoUser,
  finishSsoSignIn,
  LOGIN_REQUEST_TTL_SECONDS,
  startSsoSignIn,
  type RelyingPartyContext,
  type SsoParameters,
} from '../../sso/relying-party';
import { randomToken, ssoSiteOf, type SsoSite } from '../../sso/sso-sites';
import { fromContract } from '../../http/route-contract';

/** httpOnly cookie binding a started SSO sign-in to the browser that started it (ADR 0015). */
export const SSO_BINDING_COOKIE = 'gmap_sso_binding';

/** What the SSO routes are given: the plugin's options, handed on as they are. */
export interface SsoRouteOptions {
  db: Database;
  fixtures: Fixtures;
  auth: AuthServices;
  jobs: JobQueue;
  gateway: FastifyInstance;
  development: boolean;
  credentials: SsoCredentials;
}

/**
 * SPEC §7 `GET user-auth/oidc/authorize` (start: to the site's issuer) and the authorize POST
 * (finish: code and state in, signed in), as ADR 0015 fixes them.
 */
export async function ssoRoutes(app: FastifyInstance, options: SsoRouteOptions): Promise<void> {
  const { db, fixtures, auth, jobs, gateway } = options;
  const contextOf = (sso: SsoSite): RelyingPartyContext => ({
    transport: issuerTransportFor(sso.issuerUrl, gateway),
    development: options.development,
    credentials: options.credentials,
  });

  function ssoSite(siteId: string): SsoSite {
    const site = fixtures.sites.get(siteId);
    const sso = site ? ssoSiteOf(site.config) : null;
    if (!sso) throw new HttpError(400, 'SSO_NOT_ENABLED', 'siteId names no site that signs in with SSO.', { siteId: 'invalid' });
    return sso;
  }

  app.route<{ Querystring: SsoParameters & { siteId: string } }>({
    ...fromContract('GET /user-auth/oidc/authorize'),
    handler: async (request, reply) => {
      // ADR 0008's per-IP limit of login calls: each start writes a row, each finish calls the issuer.
      await auth.limits.countSignInCall(request.ip);
      const { siteId, ...params } = request.query;
      const sso = ssoSite(siteId);
      const binding = randomToken();
      const now = auth.clock.now();
      const authorizationUrl = await startSsoSignIn(db, sso, params, binding, contextOf(sso), now);
      reply.header(
        'set-cookie',
        serializeCookie(SSO_BINDING_COOKIE, binding, {
          httpOnly: true,
          secure: isHttps(request),
          expires: new Date(now.getTime() + LOGIN_REQUEST_TTL_SECONDS * 1000),
        }),
      );
      reply.header('cache-control', 'no-store');
      return reply.redirect(authorizationUrl, 302);
    },
  });

  app.route<{ Body: { siteId: string; code: string; state: string } }>({
    ...fromContract('POST /user-auth/oidc/authorize'),
    handler: async (request, reply): Promise<SchemaType<typeof SSO_SIGN_IN_ANSWER>> => {
      await auth.limits.countSignInCall(request.ip);
      const sso = ssoSite(request.body.siteId);
      const binding = readCookies(request).get(SSO_BINDING_COOKIE);
      const now = auth.clock.now();
      const subject = await finishSsoSignIn(db, sso, request.body, binding, contextOf(sso), now);
      const grant = await findOrCreateSsoUser(db, sso.siteId, subject);
      // ADR 0025: the identity provider's sign-in is the SSO site's proof.
      const answer = await completeSignIn(db, auth, request, reply, { ...grant, proofs: [{ kind: 'sso' }] }, false);
      expireCookies(request, reply, [SSO_BINDING_COOKIE]);
      // ADR 0021 "Telling the holder": a device new to the account is told to its address, as for a password sign-in.
      if ((await rememberSignInDevice(db, grant.userId, deviceIdOf(request, reply, now), now)) === 'new') {
        await queueAccountNotice(jobs, reply, { notice: 'new-device-sign-in', ...changeNoticeOf(request, auth, grant.userId, grant.siteId) });
      }
      return { ...answer, lastVisitedPath: subject.lastVisitedPath };
    },
  });
}
