import type { FastifyInstance } from 'fastify';
import { acceptFormBodies, readFormFields, type FieldRules } from '../../auth/form-fields';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import type { Clock } from '../../time/clock';
import type { SsoCredentials } from '../../sso/client-credentials';
import type { SsoIdentity } from '../../sso/sso-identities';
import { TEST_IDP_BASE_PATH, TEST_IDP_ISSUER, testIdpClients } from '../../sso/sso-sites';
import type { TestIdpKeys } from '../../sso/test-idp-keys';
import {
  beginAuthorization,
  chooseIdentity,
  describeInteraction,
  discoveryDocument,
  endSessionRedirect,
  exchangeCode,
  type AuthorizationQuery,
  type EndSessionQuery,
} from '../../sso/test-identity-provider';
import { fromContract } from '../../http/route-contract';

const TOKEN_RULES: FieldRules = {
  grant_type: { maxLength: 32 },
  code: { maxLength: 128 },
  redirect_uri: { maxLength: 2048 },
  client_id: { maxLength: 128 },
  code_verifier: { maxLength: 128 },
  client_assertion_type: { maxLength: 128 },
  client_assertion: { maxLength: 8192 },
};

/**
 * The gateway's own OpenID provider for local use and tests (ADR 0015), at `/test-idp/…` on the
 * page root: discovery, JWKS, authorization (to the sso-simulator identity picker), token and end-session.
 */
export async function testIdpRoutes(
  app: FastifyInstance,
  options: { db: Database; fixtures: Fixtures; clock: Clock; keys: TestIdpKeys; credentials: SsoCredentials; identities: readonly SsoIdentity[] },
): Promise<void> {
  const { db, clock, keys, identities } = options;
  const clients = testIdpClients(options.fixtures);
  const tokenEndpoint = { clients, credentials: options.credentials, keys, tokenEndpointUrl: `${new URL(TEST_IDP_ISSUER).origin}${TEST_IDP_BASE_PATH}/token` };
  await acceptFormBodies(app);

  app.route({ ...fromContract(`GET ${TEST_IDP_BASE_PATH}/.well-known/openid-configuration`), handler: async () => discoveryDocument() });
  app.route({ ...fromContract(`GET ${TEST_IDP_BASE_PATH}/jwks`), handler: async () => keys.jwks() });

  app.route<{ Querystring: AuthorizationQuery }>({
    ...fromContract(`GET ${TEST_IDP_BASE_PATH}/authorize`),
    handler: async (request, reply) => reply.redirect(await beginAuthorization(db, clients, request.query, clock.now()), 302),
  });

  app.route<{ Querystring: EndSessionQuery }>({
    ...fromContract(`GET ${TEST_IDP_BASE_PATH}/logout`),
    handler: async (request, reply) => reply.redirect(endSessionRedirect(clients, request.query), 302),
  });

  app.route<{ Params: { interaction: string } }>({
    ...fromContract(`GET ${TEST_IDP_BASE_PATH}/interactions/:interaction`),
    handler: async (request) => describeInteraction(db, identities, request.params.interaction, clock.now()),
  });

  app.route<{ Params: { interaction: string }; Body: { subject: string } }>({
    ...fromContract(`POST ${TEST_IDP_BASE_PATH}/interactions/:interaction`),
    handler: async (request) => chooseIdentity(db, identities, request.params.interaction, request.body.subject, clock.now()),
  });

  app.route({
    ...fromContract(`POST ${TEST_IDP_BASE_PATH}/token`),
    handler: async (request, reply) => {
      const form = await readFormFields(request, TOKEN_RULES);
      reply.header('cache-control', 'no-store');
      return exchangeCode(db, identities, tokenEndpoint, form, request.headers.authorization, clock.now());
    },
  });
}
