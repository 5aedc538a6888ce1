import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryOutbox } from '../../../gateway/mail/memory-outbox';
import { buildGateway } from '../../../gateway/server';
import { deriveTestSamlIdpKey } from '../../../gateway/sso/test-saml-idp';
import { randomRootKeys, ServerKeyRings } from '../../../gateway/security/key-ring';
import { AdjustableClock } from '../../../gateway/time/clock';
import { describeEachDatabase, type TestDatabase } from '../support/database-legs';
import { postSaml, startSaml } from '../support/saml-browser';
import { realFixtures } from '../support/test-gateway';

/**
 * Two development gateways behind one address share the database and the token signing key (README "Scale"). The
 * test SAML identity provider's page may come from one and the assertion consumer service from the other: its key is
 * derived from the token signing key (docs/decisions/0028-sso-saml.md), so the one signs what the other checks.
 */
const SITE = 'rheinbank';

describeEachDatabase((leg) => {
  let test: TestDatabase | undefined;
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
    await test?.dispose();
  });

  async function twoInstances(tokenSigningKey: Buffer): Promise<[FastifyInstance, FastifyInstance]> {
    test = await leg.openMigrated();
    const fixtures = await realFixtures();
    const clock = new AdjustableClock();
    const roots = { ...randomRootKeys(), 'token-signing': tokenSigningKey };
    for (let instance = 0; instance < 2; instance += 1)
      apps.push(
        await buildGateway({ db: test.db, fixtures, testMode: true, auth: { clock, devOutbox: new MemoryOutbox(clock), keys: new ServerKeyRings(roots) } }),
      );
    return [apps[0]!, apps[1]!];
  }

  describe('the test SAML identity provider on two instances', () => {
    it('publishes the same metadata from both, and one key per token signing key', async () => {
      const key = randomBytes(32);
      const [one, other] = await twoInstances(key);
      const metadata = await Promise.all([one, other].map((app) => app.inject({ method: 'GET', url: '/test-saml-idp/metadata' })));
      expect(metadata[0]!.statusCode).toBe(200);
      expect(metadata[0]!.body).toContain('X509Certificate');
      expect(metadata[1]!.body).toBe(metadata[0]!.body);
      expect(deriveTestSamlIdpKey(randomBytes(32)).certificate).not.toBe(deriveTestSamlIdpKey(key).certificate);
    });

    it("signs in when the provider's page comes from one instance and the assertion goes to the other", async () => {
      const [one, other] = await twoInstances(randomBytes(32));
      const started = await startSaml(one, SITE);
      const page = await other.inject({ method: 'GET', url: String(started.answer.headers.location) });
      expect(page.statusCode, page.body).toBe(200);
      const samlResponse = /name="SAMLResponse" value="([^"]+)"/.exec(page.body)![1]!;
      const answer = await postSaml(one, SITE, samlResponse, { cookie: started.binding });
      expect(answer.statusCode, answer.body).toBe(303);
      expect(answer.headers.location).toBe(`/${SITE}/de_de/account/profile`);
    });
  });
});
