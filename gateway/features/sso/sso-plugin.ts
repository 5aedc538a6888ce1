import type { FastifyInstance } from 'fastify';
import type { SamlKeys } from '../../sso/service-provider';
import { samlRoutes } from './saml';
import { ssoRoutes, type SsoRouteOptions } from './sso';
import { ssoLogoutRoutes } from './sso-logout';

/**
 * SPEC §7 OIDC sign-in (ADR 0015): `user-auth/oidc/authorize` and the OIDC variant of sign-out, `logout`. The test
 * identity provider these talk to in development is the development feature's.
 */
export async function ssoPlugin(app: FastifyInstance, options: SsoRouteOptions & { samlKeys: SamlKeys }): Promise<void> {
  await app.register(ssoRoutes, options);
  // docs/decisions/0028-sso-saml.md: SPEC §7's SAML SSO session and assertion, and the SP metadata.
  await app.register(samlRoutes, options);
  await app.register(ssoLogoutRoutes, options);
}
