import type { FastifyInstance } from 'fastify';
import { ssoRoutes, type SsoRouteOptions } from './sso';
import { ssoLogoutRoutes } from './sso-logout';

/**
 * SPEC §7 OIDC sign-in (ADR 0015): `user-auth/oidc/authorize` and the OIDC variant of sign-out, `logout`. The test
 * identity provider these talk to in development is the development feature's.
 */
export async function ssoPlugin(app: FastifyInstance, options: SsoRouteOptions): Promise<void> {
  await app.register(ssoRoutes, options);
  await app.register(ssoLogoutRoutes, options);
}
