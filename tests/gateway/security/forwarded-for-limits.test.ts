import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readConfig } from '../../../gateway/config';
import type { Fixtures } from '../../../gateway/site-files/load-fixtures';
import { startRefusals } from '../../../gateway/run-mode';
import { buildGateway } from '../../../gateway/server';
import { describeEachDatabase, type TestDatabase } from '../support/database-legs';
import { insertUser, multipart } from '../support/test-browser';
import { realFixtures, withXsrf } from '../support/test-gateway';

/**
 * ADR 0017 "forged X-Forwarded-For": an outside review signed in 40 times from one machine, writing another first
 * X-Forwarded-For address each time, and never met the per-IP limit while TRUST_PROXY=true. Here through the gateway
 * as main.ts builds it from the environment, after the mode's start refusals (ADR 0018): production with a hop count
 * counts the address its load balancer appended, and refuses `true`; development with `true` believes the client.
 */
const LUKAS = { email: 'lukas@example.com', password: 'Eurobank&Sicher9', siteId: 'eurobank' };
/** ADR 0008 "Limits": 30 login and token calls per IP in 5 minutes; written out, so a changed constant fails. */
const SIGN_IN_CALLS_PER_IP = 30;
const ATTEMPTS = 40;
const FIRST_PROXY = '10.0.0.5';
const SECOND_PROXY = '10.0.0.6';
/** The attacker's one real address, which the load balancer nearest them appends to whatever they wrote. */
const ATTACKER = '198.51.100.23';
const SOMEONE_ELSE = '198.51.100.99';

const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  SMTP_URL: 'smtp://portal:smtp-password@mail.example:587',
  PREAUTH_CLIENT_SECRET: 'a-production-preauth-secret',
  PUBLIC_URL: 'https://rewards.example',
  TOKEN_SIGNING_KEY: '11'.repeat(32),
  TOTP_ENCRYPTION_KEY: '22'.repeat(32),
  CARD_FINGERPRINT_KEY: '33'.repeat(32),
  HCAPTCHA_SECRET: '0x-an-hcaptcha-secret',
};

/**
 * A deployment's fixtures: the bundled ones with unionbank (OpenID Connect) and rheinbank (SAML, ADR 0028) at their
 * own https identity providers, as production requires.
 */
async function deploymentFixtures(): Promise<Fixtures> {
  const fixtures = await realFixtures();
  const sites = new Map(fixtures.sites);
  for (const [siteId, setting] of [
    ['unionbank', { issuer_url: 'https://login.unionbank.example' }],
    ['rheinbank', { saml_idp_metadata_url: 'https://login.rheinbank.example/saml/metadata' }],
  ] as const) {
    const site = sites.get(siteId)!;
    const config = structuredClone(site.config);
    const profile = config.siteFeatureConfigurations.find(({ name }) => name === 'site_auth_profile')!;
    profile.featureConfig = { ...profile.featureConfig, ...setting };
    sites.set(siteId, { ...site, config });
  }
  return { ...fixtures, sites };
}

/** How the proxies in front leave X-Forwarded-For, and which address connects: the client's header with each proxy's sighting appended. */
interface ProxyChain {
  /** The socket peer of the gateway. */
  peer: string;
  forwardedFor: (written: string, client: string) => string;
}
const ONE_PROXY: ProxyChain = { peer: FIRST_PROXY, forwardedFor: (written, client) => `${written}, ${client}` };
const TWO_PROXIES: ProxyChain = { peer: SECOND_PROXY, forwardedFor: (written, client) => `${written}, ${client}, ${FIRST_PROXY}` };

/** A different first address for every attempt, as the review's script wrote them. */
const forgedAddress = (attempt: number) => `203.0.${113 + Math.floor(attempt / 250)}.${(attempt % 250) + 1}`;

describeEachDatabase((leg) => {
  let test: TestDatabase;
  let app: FastifyInstance | undefined;
  beforeEach(async () => {
    test = await leg.openMigrated();
    await insertUser(test.db, LUKAS);
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await test.dispose();
  });

  /** The gateway main.ts would start with this environment (development on the bundled fixtures); fails when the mode refuses it. */
  async function gatewayFrom(env: Record<string, string>): Promise<FastifyInstance> {
    const config = readConfig(env);
    const fixtures = config.mode === 'production' ? await deploymentFixtures() : await realFixtures();
    expect(startRefusals(config, fixtures)).toEqual([]);
    app = await buildGateway({ mode: config.mode, db: test.db, fixtures, trustProxy: config.trustProxy });
    return app;
  }

  /** One password sign-in with no cookie but the XSRF pair (each a new device), through `chain`, the client having written `written`. */
  function signIn(gateway: FastifyInstance, chain: ProxyChain, client: string, written: string, fields: { username: string; password: string }) {
    const body = multipart({ grant_type: 'password', locale: 'en_us', init_login: 'true', siteId: LUKAS.siteId, ...fields });
    return gateway.inject({
      method: 'POST',
      url: '/api/user-auth/login',
      remoteAddress: chain.peer,
      headers: withXsrf({ 'content-type': body.contentType, 'x-forwarded-for': chain.forwardedFor(written, client) }),
      payload: body.payload,
    });
  }

  /** The review's run: 40 guesses at accounts, each with a new forged first address, from one real address. */
  async function sprayFromOneAddress(gateway: FastifyInstance, chain: ProxyChain): Promise<LightMyRequestResponse[]> {
    const answers: LightMyRequestResponse[] = [];
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      answers.push(await signIn(gateway, chain, ATTACKER, forgedAddress(attempt), { username: `guess${attempt}@example.com`, password: 'Summer2026!' }));
    }
    return answers;
  }

  it.each([
    ['hop count 1 behind one load balancer', '1', ONE_PROXY],
    ['hop count 2 behind two proxies', '2', TWO_PROXIES],
    ["the load balancers' range behind two proxies", '10.0.0.0/8', TWO_PROXIES],
  ] as const)(
    'production, %s: 40 sign-ins with a new forged first X-Forwarded-For address each meet the per-IP limit (429)',
    async (_case, trustProxy, chain) => {
      const gateway = await gatewayFrom({ ...PRODUCTION_ENV, TRUST_PROXY: trustProxy });
      const statuses = (await sprayFromOneAddress(gateway, chain)).map((answer) => answer.statusCode);
      expect(statuses.slice(0, SIGN_IN_CALLS_PER_IP)).toEqual(Array<number>(SIGN_IN_CALLS_PER_IP).fill(401));
      expect(statuses.slice(SIGN_IN_CALLS_PER_IP)).toEqual(Array<number>(ATTEMPTS - SIGN_IN_CALLS_PER_IP).fill(429));

      // The limit is the attacker's real address: even the right password waits there, and someone else signs in.
      const limited = await signIn(gateway, chain, ATTACKER, forgedAddress(ATTEMPTS), { username: LUKAS.email, password: LUKAS.password });
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toBe('RATE_LIMITED');
      expect((await signIn(gateway, chain, SOMEONE_ELSE, ATTACKER, { username: LUKAS.email, password: LUKAS.password })).statusCode).toBe(200);
    },
    60_000,
  );

  it('production refuses TRUST_PROXY=true; development, where it is allowed, lets the same 40 sign-ins through without a 429', async () => {
    const fixtures = await deploymentFixtures();
    expect(startRefusals(readConfig({ ...PRODUCTION_ENV, TRUST_PROXY: 'true' }), fixtures)).toEqual([
      expect.stringMatching(/^TRUST_PROXY=true takes the client address from X-Forwarded-For as the client wrote it, so no per-IP limit holds/),
    ]);

    const gateway = await gatewayFrom({ NODE_ENV: 'development', TRUST_PROXY: 'true' });
    const statuses = (await sprayFromOneAddress(gateway, ONE_PROXY)).map((answer) => answer.statusCode);
    expect(statuses).toEqual(Array<number>(ATTEMPTS).fill(401));
  }, 60_000);
});
