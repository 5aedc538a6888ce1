import { describe, expect, it } from 'vitest';
import { readConfig } from '../../gateway/config';
import type { Fixtures } from '../../gateway/site-files/load-fixtures';
import { developmentBanner, developmentExposures, isLoopback, startRefusals } from '../../gateway/run-mode';
import { featureConfigOf } from '../../schemas/site-config/types';
import { realFixtures } from './support/test-gateway';

/** ADR 0018: the rules of each mode, as functions; tests/gateway/main.test.ts proves them through the real process. */
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

/** The real fixtures with unionbank's issuer and rheinbank's SAML identity provider metadata (ADR 0028) replaced. */
async function fixturesWithIssuer(issuerUrl: string, samlMetadataUrl = 'https://login.rheinbank.example/saml/metadata'): Promise<Fixtures> {
  const fixtures = await realFixtures();
  const sites = new Map(fixtures.sites);
  for (const [siteId, setting] of [
    ['unionbank', { issuer_url: issuerUrl }],
    ['rheinbank', { saml_idp_metadata_url: samlMetadataUrl }],
  ] as const) {
    const site = sites.get(siteId)!;
    const config = structuredClone(site.config);
    const profile = config.siteFeatureConfigurations.find(({ name }) => name === 'site_auth_profile')!;
    profile.featureConfig = { ...profile.featureConfig, ...setting };
    sites.set(siteId, { ...site, config });
  }
  return { ...fixtures, sites };
}

describe('production refusals', () => {
  it('has none when every development default is replaced', async () => {
    expect(startRefusals(readConfig(PRODUCTION_ENV), await fixturesWithIssuer('https://login.unionbank.example'))).toEqual([]);
  });

  it.each([
    ['SMTP_URL', undefined, /^SMTP_URL is not set/],
    ['PREAUTH_CLIENT_SECRET', undefined, /^PREAUTH_CLIENT_SECRET is not set/],
    ['PREAUTH_CLIENT_SECRET', 'dev-preauth-secret', /^PREAUTH_CLIENT_SECRET is the published development secret/],
    ['PUBLIC_URL', undefined, /^PUBLIC_URL is not set/],
    ['PUBLIC_URL', 'http://rewards.example', /^PUBLIC_URL must start with https:\/\//],
    ['TOKEN_SIGNING_KEY', undefined, /^TOKEN_SIGNING_KEY is not set: production mode never generates keys/],
    ['TOTP_ENCRYPTION_KEY', undefined, /^TOTP_ENCRYPTION_KEY is not set/],
    ['CARD_FINGERPRINT_KEY', undefined, /^CARD_FINGERPRINT_KEY is not set/],
    ['CARD_FINGERPRINT_KEY', '11'.repeat(32), /^TOKEN_SIGNING_KEY, TOTP_ENCRYPTION_KEY and CARD_FINGERPRINT_KEY must be three different keys$/],
    ['GATEWAY_TEST_MODE', 'true', /^GATEWAY_TEST_MODE=true adds test hooks/],
    [
      'TRUST_PROXY',
      'true',
      /^TRUST_PROXY=true takes the client address from X-Forwarded-For as the client wrote it, so no per-IP limit holds; set the number of proxies/,
    ],
    ['HCAPTCHA_SECRET', undefined, /^HCAPTCHA_SECRET is not set, so any captcha token passes, and bancosol, dohabank, .* require a captcha/],
  ] as const)('refuses %s=%s with exactly one line', async (name, value, expected) => {
    const env: Record<string, string> = { ...PRODUCTION_ENV };
    if (value === undefined) delete env[name];
    else env[name] = value;
    const refusals = startRefusals(readConfig(env), await fixturesWithIssuer('https://login.unionbank.example'));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatch(expected);
    for (const secret of ['smtp-password', 'a-production-preauth-secret', '11'.repeat(32), '22'.repeat(32), '33'.repeat(32), '0x-an-hcaptcha-secret'])
      expect(refusals[0]).not.toContain(secret);
  });

  it.each(['http://127.0.0.1/test-idp', 'http://localhost:8080/test-idp', 'http://[::1]:8080/test-idp/', 'https://rewards.example/test-idp'])(
    "refuses an SSO site whose issuer is the gateway's own test identity provider (%s)",
    async (issuer) => {
      expect(startRefusals(readConfig(PRODUCTION_ENV), await fixturesWithIssuer(issuer))).toEqual([
        `site unionbank: site_auth_profile.issuer_url is the gateway's own test identity provider, which production mode does not serve; point it at the site's identity provider (FIXTURES_DIR, README "Production")`,
      ]);
    },
  );

  it.each(['http://127.0.0.1/test-saml-idp/metadata', 'https://rewards.example/test-saml-idp/metadata'])(
    "refuses a SAML site whose metadata is the gateway's own test SAML identity provider's (%s), naming the setting",
    async (url) => {
      expect(startRefusals(readConfig(PRODUCTION_ENV), await fixturesWithIssuer('https://login.unionbank.example', url))).toEqual([
        `site rheinbank: site_auth_profile.saml_idp_metadata_url is the gateway's own test SAML identity provider, which production mode does not serve; point it at the bank's identity provider metadata (FIXTURES_DIR, README "Single sign-on")`,
      ]);
    },
  );

  it('refuses SAML identity provider metadata over plain HTTP', async () => {
    expect(startRefusals(readConfig(PRODUCTION_ENV), await fixturesWithIssuer('https://login.unionbank.example', 'http://login.rheinbank.example/md'))).toEqual(
      ['site rheinbank: site_auth_profile.saml_idp_metadata_url must start with https:// in production mode'],
    );
  });

  it('refuses the bundled fixtures, whose unionbank and rheinbank sign in at the test identity providers, and an issuer over plain HTTP', async () => {
    expect(startRefusals(readConfig(PRODUCTION_ENV), await realFixtures())).toEqual([
      expect.stringMatching(/^site unionbank: site_auth_profile.issuer_url is the gateway's own test identity provider/),
      expect.stringMatching(/^site rheinbank: site_auth_profile.saml_idp_metadata_url is the gateway's own test SAML identity provider/),
    ]);
    expect(startRefusals(readConfig(PRODUCTION_ENV), await fixturesWithIssuer('http://login.unionbank.example'))).toEqual([
      'site unionbank: site_auth_profile.issuer_url must start with https:// in production mode',
    ]);
  });

  it('lists every problem at once when nothing is set', async () => {
    // Every unset setting, unionbank on the test identity provider and rheinbank on the test SAML identity provider.
    expect(startRefusals(readConfig({ GATEWAY_TEST_MODE: 'true' }), await realFixtures())).toHaveLength(10);
  });

  // ADR 0017: behind one load balancer 1 (or its addresses), behind two 2 (or both ranges); never "everyone".
  it.each(['1', '2', '10.0.0.0/8', '10.0.0.0/8, 192.168.4.0/24', 'fd00::/8', 'false'])('accepts TRUST_PROXY=%s', async (value) => {
    expect(startRefusals(readConfig({ ...PRODUCTION_ENV, TRUST_PROXY: value }), await fixturesWithIssuer('https://login.unionbank.example'))).toEqual([]);
  });

  it('names every site that asks a captcha, and asks no secret when none does', async () => {
    const { HCAPTCHA_SECRET: _secret, ...withoutSecret } = PRODUCTION_ENV;
    const fixtures = await fixturesWithIssuer('https://login.unionbank.example');
    const [refusal] = startRefusals(readConfig(withoutSecret), fixtures);
    const asking = [...fixtures.sites.values()].filter(({ config }) => featureConfigOf(config, 'user_enrollment').captcha_required === 'true');
    expect(asking.length).toBeGreaterThan(0);
    for (const { config } of asking) expect(refusal).toContain(config.siteId);
    expect(refusal).not.toContain('unionbank');

    const sites = new Map([...fixtures.sites].filter(([, site]) => !asking.includes(site)));
    expect(startRefusals(readConfig(withoutSecret), { ...fixtures, sites })).toEqual([]);
  });

  it('allows SITE_GALLERY=true, which lists site names and ids the site-config service already answers one by one', async () => {
    expect(startRefusals(readConfig({ ...PRODUCTION_ENV, SITE_GALLERY: 'true' }), await fixturesWithIssuer('https://login.unionbank.example'))).toEqual([]);
  });
});

describe('development mode', () => {
  it.each(['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])('listens on the loopback address %s', (host) => {
    expect(isLoopback(host)).toBe(true);
  });

  it.each(['0.0.0.0', '::', '192.168.1.20', 'rewards.example', '::ffff:10.0.0.1'])(
    'refuses HOST=%s with one line that points to production mode',
    async (host) => {
      expect(isLoopback(host)).toBe(false);
      expect(startRefusals(readConfig({ NODE_ENV: 'development', HOST: host }), await realFixtures())).toEqual([
        `HOST=${host} is not a loopback address: development mode listens on this machine only (localhost, 127.0.0.1 or ::1); to serve other machines run production mode (NODE_ENV=production, README "Production")`,
      ]);
    },
  );

  it('keeps every convenience and says which, in a banner', async () => {
    const config = readConfig({ NODE_ENV: 'development', GATEWAY_TEST_MODE: 'true' });
    expect(startRefusals(config, await realFixtures())).toEqual([]);
    const banner = developmentBanner(developmentExposures(config, await realFixtures()));
    expect(banner).toMatch(/^DEVELOPMENT MODE/);
    for (const part of [
      '/api/dev-outbox/messages',
      '/test-idp/',
      'on unionbank',
      '/test-saml-idp/',
      'on rheinbank',
      '/api/docs/openapi.json',
      'demo users',
      'TOKEN_SIGNING_KEY, TOTP_ENCRYPTION_KEY, CARD_FINGERPRINT_KEY',
      'PREAUTH_CLIENT_SECRET',
      '/api/test-support/session',
      'any captcha token passes',
      'npm run start:prod',
    ]) {
      expect(banner).toContain(part);
    }
  });

  it('names only what it exposes: no outbox reader with SMTP, no generated key that is set', async () => {
    const exposures = developmentExposures(
      readConfig({ NODE_ENV: 'development', SMTP_URL: 'smtp://mail:25', TOKEN_SIGNING_KEY: '11'.repeat(32), PREAUTH_CLIENT_SECRET: 'mine' }),
      await realFixtures(),
    );
    expect(exposures.join('\n')).not.toContain('dev-outbox');
    expect(exposures.join('\n')).not.toContain('PREAUTH_CLIENT_SECRET');
    expect(exposures.join('\n')).toContain('keys generated under DATA_DIR/secrets for TOTP_ENCRYPTION_KEY, CARD_FINGERPRINT_KEY');
  });

  it('says any captcha token passes while a site asks one and HCAPTCHA_SECRET is unset, and not once it is set', async () => {
    const fixtures = await realFixtures();
    const asking = [...fixtures.sites.values()]
      .filter(({ config }) => featureConfigOf(config, 'user_enrollment').captcha_required === 'true')
      .map(({ config }) => config.siteId)
      .sort();
    const unset = developmentExposures(readConfig({ NODE_ENV: 'development' }), fixtures);
    expect(unset).toContain(`any captcha token passes (HCAPTCHA_SECRET unset) on ${asking.join(', ')}`);
    const set = developmentExposures(readConfig({ NODE_ENV: 'development', HCAPTCHA_SECRET: '0xsecret' }), fixtures);
    expect(set.join('\n')).not.toContain('captcha');
  });
});
