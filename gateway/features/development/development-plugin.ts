import type { FastifyInstance } from 'fastify';
import { deriveTestSamlIdpKey, type TestSamlIdpKey } from '../../sso/test-saml-idp';
import { testSamlIdpRoutes } from './test-saml-idp';
import type { Database } from '../../db/database';
import type { Fixtures } from '../../site-files/load-fixtures';
import type { DevOutbox } from '../../mail/mailer';
import type { SsoCredentials } from '../../sso/client-credentials';
import { loadSsoIdentities } from '../../sso/sso-identities';
import { deriveSigningKey, TestIdpKeys } from '../../sso/test-idp-keys';
import type { AdjustableClock } from '../../time/clock';
import { apiDocsRoutes } from './api-docs';
import { devOutboxRoutes } from './dev-outbox';
import { testIdpRoutes } from './test-idp';
import { testSupportRoutes, type InjectedFailures } from './test-support';

/**
 * What a development or test gateway adds under the gateway bases, each on its own condition (ADR 0018: production
 * serves none of it): the development outbox reader while mail goes there (no SMTP_URL; ADR 0008), the route
 * contract as OpenAPI (ADR 0023), and the test hooks only in test mode (GATEWAY_TEST_MODE, which production refuses to start with).
 */
export async function developmentPlugin(
  app: FastifyInstance,
  options: {
    db: Database;
    fixtures: Fixtures;
    clock: AdjustableClock;
    development: boolean;
    testMode: boolean;
    devOutbox: DevOutbox | null;
    failures: InjectedFailures;
  },
): Promise<void> {
  const { db, fixtures, clock, development } = options;
  if (options.devOutbox && development) await app.register(devOutboxRoutes, { outbox: options.devOutbox });
  if (development) await app.register(apiDocsRoutes, { fixtures });
  if (options.testMode) await app.register(testSupportRoutes, { db, clock, failures: options.failures });
}

/**
 * The test identity provider (ADR 0015) at `/test-idp/…` on the page root, development only (ADR 0018): its people, and
 * its key, derived from the token signing key so every instance signs alike, unless a test brings its own keys.
 */
export async function developmentPageRootPlugin(
  app: FastifyInstance,
  options: {
    db: Database;
    fixtures: Fixtures;
    clock: AdjustableClock;
    development: boolean;
    credentials: SsoCredentials;
    tokenSigningKey: Buffer;
    testIdpKeys: TestIdpKeys | undefined;
    testSamlIdpKey: TestSamlIdpKey | undefined;
  },
): Promise<void> {
  const { db, fixtures, clock, credentials } = options;
  if (!options.development) return;
  const keys = options.testIdpKeys ?? new TestIdpKeys(deriveSigningKey(options.tokenSigningKey));
  const identities = await loadSsoIdentities(fixtures);
  await app.register(testIdpRoutes, { db, fixtures, clock, keys, credentials, identities });
  // ADR 0028: the test SAML identity provider's RSA key is derived like the OpenID one's, so instances sign alike.
  // Deriving an RSA key takes a few hundred milliseconds: only a gateway whose provider is asked for it does.
  let samlIdpKey = options.testSamlIdpKey;
  const key = () => (samlIdpKey ??= deriveTestSamlIdpKey(options.tokenSigningKey));
  await app.register(testSamlIdpRoutes, { fixtures, clock, identities, key });
}
