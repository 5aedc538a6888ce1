import type { FastifyInstance } from 'fastify';
import { TEST_IDP_AUTHORIZE_QUERY, TEST_IDP_CHOICE_BODY, TEST_IDP_END_SESSION_QUERY, TEST_IDP_INTERACTION_PARAMS } from '../../../schemas/api/request-schemas';
import { acceptFormBodies, readFormFields, type FieldRules } from '../../auth/form-fields';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../fixtures/load-fixtures';
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

  app.get(`${TEST_IDP_BASE_PATH}/.well-known/openid-configuration`, { config: { access: 'public' } }, async () => discoveryDocument());
  app.get(`${TEST_IDP_BASE_PATH}/jwks`, { config: { access: 'public' } }, async () => keys.jwks());

  app.get<{ Querystring: AuthorizationQuery }>(
    `${TEST_IDP_BASE_PATH}/authorize`,
    { config: { access: 'public' }, schema: { querystring: TEST_IDP_AUTHORIZE_QUERY } },
    async (request, reply) => reply.redirect(await beginAuthorization(db, clients, request.query, clock.now()), 302),
  );

  app.get<{ Querystring: EndSessionQuery }>(
    `${TEST_IDP_BASE_PATH}/logout`,
    { config: { access: 'public' }, schema: { querystring: TEST_IDP_END_SESSION_QUERY } },
    async (request, reply) => reply.redirect(endSessionRedirect(clients, request.query), 302),
  );

  app.get<{ Params: { interaction: string } }>(
    `${TEST_IDP_BASE_PATH}/interactions/:interaction`,
    { config: { access: 'public' }, schema: { params: TEST_IDP_INTERACTION_PARAMS } },
    async (request) => describeInteraction(db, identities, request.params.interaction, clock.now()),
  );

  app.post<{ Params: { interaction: string }; Body: { subject: string } }>(
    `${TEST_IDP_BASE_PATH}/interactions/:interaction`,
    {
      config: { access: 'public' },
      schema: { params: TEST_IDP_INTERACTION_PARAMS, body: TEST_IDP_CHOICE_BODY },
    },
    async (request) => chooseIdentity(db, identities, request.params.interaction, request.body.subject, clock.now()),
  );

  app.post(`${TEST_IDP_BASE_PATH}/token`, { config: { access: 'public' } }, async (request, reply) => {
    const form = await readFormFields(request, TOKEN_RULES);
    reply.header('cache-control', 'no-store');
    return exchangeCode(db, identities, tokenEndpoint, form, request.headers.authorization, clock.now());
  });
}
