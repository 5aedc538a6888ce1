import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../gateway/config';
import { FIXTURES_DIR } from '../../gateway/site-files/load-fixtures';

describe('readConfig', () => {
  it('has defaults that make `npm start` (NODE_ENV=development) work on a fresh machine', () => {
    expect(readConfig({ NODE_ENV: 'development' })).toEqual({
      mode: 'development',
      port: 8080,
      host: 'localhost',
      dataDir: './data',
      embeddedDbDir: 'data/db',
      databaseUrl: undefined,
      redisUrl: undefined,
      redisKeyPrefix: 'gateway:limits:',
      smtpUrl: undefined,
      mailFrom: 'Rewards Portal <no-reply@localhost>',
      cardFingerprintKey: undefined,
      tokenSigningKey: undefined,
      totpEncryptionKey: undefined,
      preauthClientId: undefined,
      preauthClientSecret: undefined,
      distDir: 'dist',
      fixturesDir: FIXTURES_DIR,
      logLevel: 'info',
      testMode: false,
      siteGallery: false,
      trustProxy: false,
      publicUrl: undefined,
      pwnedRangeCheck: false,
      hcaptchaSecret: undefined,
      hcaptchaSiteKey: undefined,
      analyticsTagHosts: [],
      ssoCredentialEnv: {},
    });
  });

  it('reads every variable', () => {
    const config = readConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/portal',
      DATABASE_URL: 'postgres://portal:secret@db:5432/portal',
      REDIS_URL: 'redis://cache:6379',
      SMTP_URL: 'smtp://mail:25',
      CARD_FINGERPRINT_KEY: 'ab'.repeat(32),
      TOKEN_SIGNING_KEY: 'cd'.repeat(32),
      TOTP_ENCRYPTION_KEY: 'ef'.repeat(32),
      PREAUTH_CLIENT_ID: 'portal-app',
      PREAUTH_CLIENT_SECRET: 'preauth-secret',
      MAIL_FROM: 'Portal <mail@portal.example>',
      DIST_DIR: '/srv/app',
      LOG_LEVEL: 'warn',
      GATEWAY_TEST_MODE: 'true',
      SITE_GALLERY: 'true',
      PUBLIC_URL: 'https://rewards.example',
      PWNED_RANGE_CHECK: 'true',
    });
    // ADR 0009: links in e-mails, the optional online compromised-password check.
    expect(config).toMatchObject({ publicUrl: 'https://rewards.example', pwnedRangeCheck: true });
    expect(config).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      embeddedDbDir: '/var/lib/portal/db',
      redisUrl: 'redis://cache:6379',
      testMode: true,
      siteGallery: true,
      logLevel: 'warn',
    });
    // ADR 0008: the sign-in keys, pre-auth client and mail sender.
    expect(config).toMatchObject({
      tokenSigningKey: 'cd'.repeat(32),
      totpEncryptionKey: 'ef'.repeat(32),
      preauthClientId: 'portal-app',
      preauthClientSecret: 'preauth-secret',
      mailFrom: 'Portal <mail@portal.example>',
      smtpUrl: 'smtp://mail:25',
    });
  });

  // ADR 0018: production unless NODE_ENV names development; the test runner's "test" is development too.
  it.each([
    [undefined, 'production'],
    ['production', 'production'],
    ['development', 'development'],
    ['test', 'development'],
  ] as const)('reads NODE_ENV=%s as %s mode', (value, mode) => {
    expect(readConfig(value === undefined ? {} : { NODE_ENV: value }).mode).toBe(mode);
  });

  it.each(['prod', 'Production', 'staging'])('refuses NODE_ENV=%s rather than guess a mode', (value) => {
    expect(() => readConfig({ NODE_ENV: value })).toThrow(`NODE_ENV must be "production" or "development" ("test" counts as development), got "${value}"`);
  });

  it("reads FIXTURES_DIR, the folder of a deployment's own site configurations", () => {
    expect(readConfig({ FIXTURES_DIR: '/etc/portal/fixtures' }).fixturesDir).toBe('/etc/portal/fixtures');
  });

  it('refuses a key shorter than 32 bytes, naming the variable and never the value', () => {
    try {
      readConfig({ TOKEN_SIGNING_KEY: 'ab'.repeat(16), TOTP_ENCRYPTION_KEY: 'c2hvcnQta2V5', CARD_FINGERPRINT_KEY: 'ef'.repeat(32) });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'TOKEN_SIGNING_KEY must hold at least 32 bytes as hex or base64 (e.g. `openssl rand -hex 32`)',
        'TOTP_ENCRYPTION_KEY must hold at least 32 bytes as hex or base64 (e.g. `openssl rand -hex 32`)',
      ]);
      expect((error as Error).message).not.toContain('ab'.repeat(16));
    }
  });

  it.each(['eighty', '-1', '65536', '80.5', '0x50'])('rejects PORT=%s with a clear message', (port) => {
    expect(() => readConfig({ PORT: port })).toThrow(ConfigError);
    expect(() => readConfig({ PORT: port })).toThrow(`PORT must be an integer from 0 to 65535 (0 picks a free port), got "${port}"`);
  });

  it('lists every problem at once and never echoes a URL, which may hold a password', () => {
    try {
      readConfig({ PORT: 'x', DATABASE_URL: 'mysql://root:hunter2@db/x', REDIS_URL: 'http://cache', GATEWAY_TEST_MODE: 'yes', LOG_LEVEL: 'loud' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toHaveLength(5);
      expect((error as Error).message).toContain('DATABASE_URL must be a URL starting with postgres:// or postgresql://');
      expect((error as Error).message).not.toContain('hunter2');
    }
  });

  it.each([
    ['true', true],
    ['false', false],
    ['2', 2],
    ['10.0.0.0/8, 127.0.0.1', ['10.0.0.0/8', '127.0.0.1']],
    ['fd00::/8,10.1.2.3/32', ['fd00::/8', '10.1.2.3/32']],
  ] as const)('reads TRUST_PROXY=%s', (value, expected) => {
    expect(readConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  // ADR 0013: hCaptcha's siteverify and the analytics tag hosts of the CSP, only when configured.
  it('reads the hCaptcha secret and site key and the analytics tag hosts', () => {
    expect(
      readConfig({
        HCAPTCHA_SECRET: '0xsecret',
        HCAPTCHA_SITE_KEY: 'site-key',
        ANALYTICS_TAG_HOSTS: 'https://www.googletagmanager.com, https://tags.example:8443',
      }),
    ).toMatchObject({
      hcaptchaSecret: '0xsecret',
      hcaptchaSiteKey: 'site-key',
      analyticsTagHosts: ['https://www.googletagmanager.com', 'https://tags.example:8443'],
    });
  });

  // ADR 0015: confidential SSO clients' secrets and keys, named per site; nothing else of the environment.
  it('keeps the SSO_CLIENT_SECRET_<SITE> and SSO_PRIVATE_KEY_<SITE> variables that are set, and no other', () => {
    expect(
      readConfig({
        SSO_CLIENT_SECRET_UNIONBANK: ' s3cret ',
        SSO_PRIVATE_KEY_OTHER_BANK: '{"kty":"EC"}',
        SSO_CLIENT_SECRET_EMPTY: '',
        SSO_OTHER: 'x',
        HOME: '/root',
      }).ssoCredentialEnv,
    ).toEqual({
      SSO_CLIENT_SECRET_UNIONBANK: 's3cret',
      SSO_PRIVATE_KEY_OTHER_BANK: '{"kty":"EC"}',
    });
  });

  it.each(['http://tags.example', 'https://tags.example/gtm.js', "https://tags.example 'unsafe-inline'", '*'])(
    'refuses ANALYTICS_TAG_HOSTS=%s, which would loosen the CSP',
    (value) => {
      expect(() => readConfig({ ANALYTICS_TAG_HOSTS: value })).toThrow('ANALYTICS_TAG_HOSTS must be comma-separated https origins');
    },
  );

  // README "Environment" (`REDIS_KEY_PREFIX`): two deployments (or test runs) on one Redis keep their counters apart.
  it('reads REDIS_KEY_PREFIX and refuses one with spaces, patterns or over 64 characters', () => {
    expect(readConfig({ REDIS_URL: 'redis://cache:6379', REDIS_KEY_PREFIX: 'portal-eu:limits:' }).redisKeyPrefix).toBe('portal-eu:limits:');
    for (const value of ['portal eu', 'limits:*', 'x'.repeat(65)]) {
      expect(() => readConfig({ REDIS_KEY_PREFIX: value })).toThrow(`REDIS_KEY_PREFIX must be 1 to 64 letters, digits or the signs : . _ -, got "${value}"`);
    }
  });

  // README "Metrics": the operators' bearer token; unset, there is no /metrics at all.
  it('reads METRICS_TOKEN and refuses a short one without echoing it', () => {
    expect(readConfig({}).metricsToken).toBeUndefined();
    const token = 'f'.repeat(64);
    expect(readConfig({ METRICS_TOKEN: token }).metricsToken).toBe(token);
    for (const value of ['short-token', `${'x'.repeat(40)} spaced`]) {
      expect(() => readConfig({ METRICS_TOKEN: value })).toThrow('METRICS_TOKEN must be 32 to 512 token characters');
      try {
        readConfig({ METRICS_TOKEN: value });
      } catch (error) {
        expect(String(error)).not.toContain(value);
      }
    }
  });

  // Each as proxy-addr would refuse it when the server is built: here it is one line of the start's problems instead.
  it.each(['everyone', '999.0.0.1', '10.0.0.0/33', '10.0.0.0/0', 'fd00::/129', '10.0.0.0/8/8', '10.0.0.0/x'])('refuses TRUST_PROXY=%s', (value) => {
    expect(() => readConfig({ TRUST_PROXY: value })).toThrow(`TRUST_PROXY must be "false", a hop count (1 behind one load balancer)`);
  });
});
