import type { FastifyInstance } from 'fastify';
import type { OIDC_LOGOUT_ANSWER } from '../../../schemas/api/response-schemas';
import type { SchemaType } from '../../../schemas/api/schema-type';
import { SITE_ID_PATTERN } from '../../../schemas/site-config/fixture-format';
import type { AuthServices } from '../../auth/auth-services';
import { endBrowserSession } from '../../auth/end-browser-session';
import { readCookies, SESSION_COOKIE } from '../../auth/session-cookies';
import { findSessionUser } from '../../auth/session-store';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import { HttpError } from '../../http/errors';
import { issuerTransportFor } from '../../sso/issuer-transport';
import type { SsoCredentials } from '../../sso/client-credentials';
import { samlBrowserUrlOf, samlSiteOf } from '../../sso/saml-sites';
import type { SamlKeys } from '../../sso/service-provider';
import { samlSessionOf, startSamlLogout } from '../../sso/single-logout';
import { endSessionUrlOf } from '../../sso/sso-logout';
import { ssoSiteOf } from '../../sso/sso-sites';
import { fromContract } from '../../http/route-contract';

const SITE_ID = new RegExp(SITE_ID_PATTERN);

/** docs/decisions/0022-declared-calls.md: the answer of the OIDC logout, as the contract states it. */
type OidcLogoutAnswer = SchemaType<typeof OIDC_LOGOUT_ANSWER>;

/**
 * SPEC §7 "OIDC variant POST {app base}/logout" of `tokens/revoke`, at `{gateway base}/logout` (the app's
 * own server in client-server mode). It signs out exactly as tokens/revoke does (same optional
 * `?refresh_token=`, any body dropped, 200 even when already signed out) and, on an SSO site, answers
 * the identity provider's end-session URL (OpenID Connect RP-Initiated Logout) for the app to open.
 * The site is the session's (ADR 0017); only without a session does X-SITE-ID name it.
 * `?post_logout_redirect_uri=` must be one of the site's registered redirect URIs (default: the first);
 * anything else is a 400 before anything ends, so the provider is never asked to send a person elsewhere.
 * On a SAML site (docs/decisions/0028-sso-saml.md "Sign-out") the answer is the identity provider's single logout
 * URL with a LogoutRequest for the session's NameID and SessionIndex, when the provider offers single logout; the
 * provider answers at the site's SLO service. `post_logout_redirect_uri` is not read there.
 */
export async function ssoLogoutRoutes(
  app: FastifyInstance,
  options: {
    db: Database;
    fixtures: Fixtures;
    auth: AuthServices;
    gateway: FastifyInstance;
    development: boolean;
    credentials: SsoCredentials;
    samlKeys: SamlKeys;
  },
): Promise<void> {
  const { db, fixtures, auth, gateway, development, credentials } = options;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
  app.route<{ Querystring: { refresh_token?: string; post_logout_redirect_uri?: string } }>({
    ...fromContract('POST /logout'),
    handler: async (request, reply): Promise<OidcLogoutAnswer> => {
      const now = auth.clock.now();
      const token = readCookies(request).get(SESSION_COOKIE);
      const session = token ? await findSessionUser(db, token, now) : null;
      const header = request.headers['x-site-id'];
      const siteId = session?.siteId ?? (typeof header === 'string' && SITE_ID.test(header) ? header : undefined);
      const site = siteId === undefined ? undefined : fixtures.sites.get(siteId);
      const sso = site ? ssoSiteOf(site.config) : null;
      const redirectUri = request.query.post_logout_redirect_uri ?? sso?.redirectUris[0];
      if (sso && (redirectUri === undefined || !sso.redirectUris.includes(redirectUri))) {
        throw new HttpError(400, 'REDIRECT_URI_NOT_REGISTERED', 'post_logout_redirect_uri is not one of the redirect URIs registered for this site.', {
          post_logout_redirect_uri: 'invalid',
        });
      }
      const saml = site ? samlSiteOf(site.config) : null;
      // Read before the session ends, which takes these with it.
      const samlSession = saml && session ? await samlSessionOf(db, session.sessionId, saml.siteId) : null;
      await endBrowserSession(db, request, reply, request.query.refresh_token || undefined, now);
      let endSessionUrl: string | null = null;
      if (sso && redirectUri !== undefined) {
        endSessionUrl = await endSessionUrlOf(sso, redirectUri, { transport: issuerTransportFor(sso.issuerUrl, gateway), development, credentials });
      } else if (saml && samlSession) {
        const url = await startSamlLogout(saml, samlSession, { db, gateway, development, keys: options.samlKeys }, now);
        endSessionUrl = url === null ? null : samlBrowserUrlOf(url);
      }
      reply.header('cache-control', 'no-store');
      return { revoked: true, endSessionUrl };
    },
  });
}
