import { isIP } from 'node:net';
import { DEV_PREAUTH_CLIENT } from './auth/auth-services';
import type { GatewayConfig } from './config';
import type { Fixtures } from './site-files/load-fixtures';
import { featureConfigOf } from '../schemas/site-config/types';
import { keyBytes } from './security/server-keys';
import { samlSites, TEST_SAML_IDP_BASE_PATH } from './sso/saml-sites';
import { ssoSiteOf, TEST_IDP_BASE_PATH, TEST_IDP_ISSUER, type SsoSite } from './sso/sso-sites';

/**
 * ADR 0018, modelled on Keycloak's `start-dev` and `start`: development mode (`npm start`) is a demo
 * on one machine with its conveniences (the outbox reader, the test identity provider, the API document, demo users,
 * generated keys, the development pre-auth secret, test hooks), says so at start and listens on
 * loopback only; production mode has none of them and refuses to start while any development
 * default is left, every problem on its own line, never echoing a secret.
 */
export const PRODUCTION_HEADING = 'The gateway refuses to start in production mode (NODE_ENV=production or unset; `npm start` is the development demo)';

const KEY_SETTINGS = [
  ['TOKEN_SIGNING_KEY', 'tokenSigningKey'],
  ['TOTP_ENCRYPTION_KEY', 'totpEncryptionKey'],
  ['CARD_FINGERPRINT_KEY', 'cardFingerprintKey'],
] as const;

/** What keeps the gateway from starting in its mode; empty when it may start. */
export function startRefusals(config: GatewayConfig, fixtures: Fixtures): string[] {
  return config.mode === 'production' ? productionRefusals(config, fixtures) : developmentRefusals(config);
}

function developmentRefusals(config: GatewayConfig): string[] {
  if (isLoopback(config.host)) return [];
  return [
    `HOST=${config.host} is not a loopback address: development mode listens on this machine only (localhost, 127.0.0.1 or ::1); to serve other machines run production mode (NODE_ENV=production, README "Production")`,
  ];
}

function productionRefusals(config: GatewayConfig, fixtures: Fixtures): string[] {
  const problems: string[] = [];
  if (config.smtpUrl === undefined)
    problems.push('SMTP_URL is not set: production mode sends e-mail through SMTP and serves no outbox (smtp:// or smtps://, credentials in the URL)');
  if (config.preauthClientSecret === undefined)
    problems.push('PREAUTH_CLIENT_SECRET is not set: production mode has no development pre-auth client; set the secret of yours (and PREAUTH_CLIENT_ID)');
  else if (config.preauthClientSecret === DEV_PREAUTH_CLIENT.secret)
    problems.push('PREAUTH_CLIENT_SECRET is the published development secret; set a secret of your own');
  if (config.publicUrl === undefined)
    problems.push('PUBLIC_URL is not set: production mode needs the public https origin (https://rewards.example) of mailed links and Secure cookies');
  else if (!config.publicUrl.startsWith('https://'))
    problems.push('PUBLIC_URL must start with https:// in production mode: its cookies are Secure and its mailed links must not travel in clear');
  const keys: Buffer[] = [];
  for (const [name, field] of KEY_SETTINGS) {
    const value = config[field];
    if (value === undefined)
      problems.push(`${name} is not set: production mode never generates keys under DATA_DIR; set one (\`openssl rand -hex 32\`), the same on every instance`);
    else keys.push(keyBytes(value));
  }
  if (keys.some((key, index) => keys.findIndex((other) => other.equals(key)) !== index)) {
    problems.push('TOKEN_SIGNING_KEY, TOTP_ENCRYPTION_KEY and CARD_FINGERPRINT_KEY must be three different keys');
  }
  if (config.testMode) problems.push('GATEWAY_TEST_MODE=true adds test hooks that sign anyone in and move the clock; production mode never has them');
  // ADR 0017: `true` takes the left-most X-Forwarded-For address, which the client writes, so every per-IP limit (ADR 0008) is void.
  if (config.trustProxy === true) {
    problems.push(
      'TRUST_PROXY=true takes the client address from X-Forwarded-For as the client wrote it, so no per-IP limit holds; set the number of proxies in front of the gateway (1 behind one load balancer) or their addresses/CIDRs (README "Production")',
    );
  }
  // ADR 0013: without hCaptcha's secret the offline verifier passes any token, so a site's captcha (SPEC §7) stops no bot.
  const onCaptcha = captchaSites(fixtures);
  if (config.hcaptchaSecret === undefined && onCaptcha.length > 0) {
    problems.push(
      `HCAPTCHA_SECRET is not set, so any captcha token passes, and ${onCaptcha.join(', ')} require a captcha (user_enrollment.captcha_required); set hCaptcha's secret (and HCAPTCHA_SITE_KEY)`,
    );
  }
  for (const sso of ssoSites(fixtures)) {
    if (isTestIdentityProvider(sso.issuerUrl, config.publicUrl)) {
      problems.push(
        `site ${sso.siteId}: site_auth_profile.issuer_url is the gateway's own test identity provider, which production mode does not serve; point it at the site's identity provider (FIXTURES_DIR, README "Production")`,
      );
    } else if (!sso.issuerUrl.startsWith('https://')) {
      problems.push(`site ${sso.siteId}: site_auth_profile.issuer_url must start with https:// in production mode`);
    }
  }
  // docs/decisions/0028-sso-saml.md: the same for a SAML site's identity provider metadata.
  for (const saml of samlSites(fixtures)) {
    if (!('url' in saml.idpMetadata)) continue;
    if (isOnGateway(saml.idpMetadata.url, TEST_SAML_IDP_BASE_PATH, config.publicUrl)) {
      problems.push(
        `site ${saml.siteId}: site_auth_profile.saml_idp_metadata_url is the gateway's own test SAML identity provider, which production mode does not serve; point it at the bank's identity provider metadata (FIXTURES_DIR, README "Single sign-on")`,
      );
    } else if (!saml.idpMetadata.url.startsWith('https://')) {
      problems.push(`site ${saml.siteId}: site_auth_profile.saml_idp_metadata_url must start with https:// in production mode`);
    }
  }
  return problems;
}

/** What a development-mode gateway with this configuration exposes to anyone who reaches it. */
export function developmentExposures(config: GatewayConfig, fixtures: Fixtures): string[] {
  const exposures: string[] = [];
  if (config.smtpUrl === undefined) {
    exposures.push(
      'the outbox reader GET /api/dev-outbox/messages?to=<address>: every passcode, recovery code and activation link the gateway mails (SMTP_URL unset)',
    );
  }
  const onTestProvider = ssoSites(fixtures)
    .filter((sso) => isTestIdentityProvider(sso.issuerUrl, config.publicUrl))
    .map((sso) => sso.siteId);
  exposures.push(
    `the test identity provider /test-idp/: anyone picks an identity and is signed in${onTestProvider.length > 0 ? ` on ${onTestProvider.join(', ')}` : ''}`,
  );
  const onTestSamlProvider = samlSites(fixtures)
    .filter((saml) => 'url' in saml.idpMetadata && isOnGateway(saml.idpMetadata.url, TEST_SAML_IDP_BASE_PATH, config.publicUrl))
    .map((saml) => saml.siteId);
  exposures.push(
    `the test SAML identity provider /test-saml-idp/: anyone picks a person and is signed in${onTestSamlProvider.length > 0 ? ` on ${onTestSamlProvider.join(', ')}` : ''}`,
  );
  exposures.push('the API document GET /api/docs/openapi.json (and /api/docs): every route of the gateway and who may call it');
  exposures.push('demo users whose passwords are published (fixtures/demo-users.json), seeded into an empty database');
  const generated = KEY_SETTINGS.filter(([, field]) => config[field] === undefined).map(([name]) => name);
  if (generated.length > 0) exposures.push(`keys generated under DATA_DIR/secrets for ${generated.join(', ')}`);
  if (config.preauthClientSecret === undefined || config.preauthClientSecret === DEV_PREAUTH_CLIENT.secret) {
    exposures.push('the published development pre-auth client secret (PREAUTH_CLIENT_SECRET)');
  }
  const onCaptcha = captchaSites(fixtures);
  if (config.hcaptchaSecret === undefined && onCaptcha.length > 0) {
    exposures.push(`any captcha token passes (HCAPTCHA_SECRET unset) on ${onCaptcha.join(', ')}`);
  }
  if (config.testMode)
    exposures.push('test hooks (GATEWAY_TEST_MODE=true): POST /api/test-support/session signs anyone in, POST /api/test-support/clock moves the clock');
  return exposures;
}

/** The start-up banner of development mode, for stderr. */
export function developmentBanner(exposures: readonly string[]): string {
  return [
    'DEVELOPMENT MODE (NODE_ENV=development): a demo for this machine, never for real card holders. It exposes:',
    ...exposures.map((exposure) => `  - ${exposure}`),
    'It listens on loopback only. Production: `npm run start:prod` (NODE_ENV=production), see README "Production".',
  ].join('\n');
}

/** `localhost`, 127.0.0.0/8 or ::1 (with or without brackets, IPv4-mapped too). */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (bare.toLowerCase() === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) !== 6) return false;
  const normal = new URL(`http://[${bare}]`).hostname;
  return normal === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(normal);
}

/** Every SSO site of the fixtures, by site id. */
export function ssoSites(fixtures: Fixtures): SsoSite[] {
  return [...fixtures.sites.values(), fixtures.defaultSite].flatMap(({ config }) => ssoSiteOf(config) ?? []).sort((a, b) => a.siteId.localeCompare(b.siteId));
}

/** The ids of the sites whose registration asks a captcha (SPEC §7 `captcha_required`, as `assertCaptcha` reads it), sorted. */
export function captchaSites(fixtures: Fixtures): string[] {
  const ids = [...fixtures.sites.values(), fixtures.defaultSite]
    .filter(({ config }) => featureConfigOf(config, 'user_enrollment').captcha_required === 'true')
    .map(({ config }) => config.siteId);
  return [...new Set(ids)].sort((a, b) => a.localeCompare(b));
}

/** ADR 0015's provider: its issuer identifier, or its path on this machine or on the gateway's public origin. */
function isTestIdentityProvider(issuerUrl: string, publicUrl: string | undefined): boolean {
  return issuerUrl === TEST_IDP_ISSUER || isOnGateway(issuerUrl, TEST_IDP_BASE_PATH, publicUrl);
}

/** A URL under `basePath` of the gateway itself (a loopback host, or PUBLIC_URL's origin): one of its test identity providers. */
function isOnGateway(url: string, basePath: string, publicUrl: string | undefined): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  const onGateway = isLoopback(parsed.hostname) || (publicUrl !== undefined && URL.canParse(publicUrl) && new URL(publicUrl).origin === parsed.origin);
  return onGateway && (parsed.pathname === basePath || parsed.pathname.startsWith(`${basePath}/`));
}
