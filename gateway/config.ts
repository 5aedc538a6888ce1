import { isIP } from 'node:net';
import { join } from 'node:path';
import { FIXTURES_DIR } from './site-files/load-fixtures';
import { keyBytes, MIN_KEY_BYTES } from './security/server-keys';
import { SSO_CREDENTIAL_VARIABLE } from './sso/client-credentials';

/**
 * ADR 0018: development (`npm start`, NODE_ENV=development; the test runner's NODE_ENV=test too) has
 * the conveniences of a demo on one machine; production (NODE_ENV=production, or unset) has none.
 */
export type RunMode = 'development' | 'production';

/** The gateway's settings, from the environment once at start (`main.ts`). */
export interface GatewayConfig {
  mode: RunMode;
  port: number;
  host: string;
  dataDir: string;
  /** PGlite keeps its files here when no DATABASE_URL is set. */
  embeddedDbDir: string;
  /** PostgreSQL server mode when set (DESIGN "Scale"). */
  databaseUrl?: string;
  /** Sign-in counters shared between instances (ADR 0008 "Limits"); in process when unset. */
  redisUrl?: string;
  /** Prefix of every counter key in Redis, so deployments (or test runs) sharing one Redis never count each other's hits. */
  redisKeyPrefix: string;
  /** Outgoing e-mail through SMTP (ADR 0008 "Mail and SMS"); the development outbox when unset. */
  smtpUrl?: string;
  /** The From of outgoing e-mail. */
  mailFrom: string;
  /** Hex or base64, at least 32 bytes; otherwise a key file under dataDir. */
  cardFingerprintKey?: string;
  /** Signs access tokens and sign-in cookies, keys passcode hashes; like cardFingerprintKey. */
  tokenSigningKey?: string;
  /** Seals TOTP secrets (AES-256-GCM); like cardFingerprintKey. */
  totpEncryptionKey?: string;
  /** The `?preauth=true` client credentials (ADR 0008); development defaults when unset. */
  preauthClientId?: string;
  preauthClientSecret?: string;
  distDir: string;
  /** The site configurations, content and other data (`fixtures/` of this repository unless FIXTURES_DIR is set). */
  fixturesDir: string;
  logLevel: string;
  testMode: boolean;
  /** The site gallery's site list (README "Environment", `SITE_GALLERY`): off unless SITE_GALLERY=true. */
  siteGallery: boolean;
  /**
   * Which proxies may name the client address (X-Forwarded-For), so per-IP limits count people, not
   * the load balancer: false (default), a hop count, or a comma-separated list of addresses/CIDRs;
   * true (every address, the client's own first entry included) in development only (ADR 0017).
   */
  trustProxy: boolean | number | string[];
  /** The public origin for links in e-mails (activation, recovery); the request's own origin when unset. */
  publicUrl?: string;
  /** ADR 0009: also ask the Have I Been Pwned range API (k-anonymity) about new and signed-in passwords; off by default. */
  pwnedRangeCheck: boolean;
  /** ADR 0013: hCaptcha's secret; when set, captcha tokens are verified with hCaptcha's siteverify and its hosts join the CSP. */
  hcaptchaSecret?: string;
  /** ADR 0013: the site key the app was built with (VITE_HCAPTCHA_SITE_KEY); binds tokens to it at siteverify. */
  hcaptchaSiteKey?: string;
  /** ADR 0013: https origins of the region analytics tags the app was built to load; they join the CSP. None by default. */
  analyticsTagHosts: string[];
  /**
   * ADR 0015: `SSO_CLIENT_SECRET_<SITE>` and `SSO_PRIVATE_KEY_<SITE>` as set, read per site by
   * `readSsoCredentials` once the fixtures are known. Secrets: never logged or echoed.
   */
  ssoCredentialEnv: Readonly<Record<string, string>>;
  /** README "Metrics": the bearer token `/metrics` asks for; no `/metrics` at all when unset. A secret: never logged. */
  metricsToken?: string;
}

/** A setting is wrong: the message lists every problem, one line each, and is safe to print (no secret values). */
export class ConfigError extends Error {
  constructor(
    readonly problems: readonly string[],
    heading = "The gateway's environment is not valid",
  ) {
    super(`${heading}:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function readConfig(env: NodeJS.ProcessEnv): GatewayConfig {
  const { config, problems } = readSettings(env);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** The settings and every problem with them; `main.ts` adds the refusals of the mode (ADR 0018) before it reports them all at once. */
export function readSettings(env: NodeJS.ProcessEnv): { config: GatewayConfig; problems: string[] } {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  /** A URL-valued variable; the value itself is never echoed, it may carry a password. */
  const url = (name: string, schemes: readonly string[]): string | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    if (!schemes.some((scheme) => value.startsWith(`${scheme}://`)) || !URL.canParse(value)) {
      problems.push(`${name} must be a URL starting with ${schemes.map((scheme) => `${scheme}://`).join(' or ')}`);
    }
    return value;
  };

  const portText = text('PORT') ?? '8080';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535) problems.push(`PORT must be an integer from 0 to 65535 (0 picks a free port), got "${portText}"`);

  const flag = (name: string): boolean => {
    const value = text(name) ?? 'false';
    if (value !== 'true' && value !== 'false') problems.push(`${name} must be "true" or "false", got "${value}"`);
    return value === 'true';
  };

  /** A server key: hex or base64 of at least MIN_KEY_BYTES bytes; the value itself is never echoed. */
  const key = (name: string): string | undefined => {
    const value = text(name);
    if (value !== undefined && keyBytes(value).length < MIN_KEY_BYTES)
      problems.push(`${name} must hold at least ${MIN_KEY_BYTES} bytes as hex or base64 (e.g. \`openssl rand -hex 32\`)`);
    return value;
  };

  const logLevel = text('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);

  const metricsToken = text('METRICS_TOKEN');
  if (metricsToken !== undefined && !/^[A-Za-z0-9._~+/=-]{32,512}$/.test(metricsToken))
    problems.push('METRICS_TOKEN must be 32 to 512 token characters (letters, digits, . _ ~ + / = -; e.g. `openssl rand -hex 32`)');

  const dataDir = text('DATA_DIR') ?? './data';
  const config: GatewayConfig = {
    mode: runModeSetting(text('NODE_ENV'), problems),
    port,
    host: text('HOST') ?? 'localhost',
    dataDir,
    embeddedDbDir: join(dataDir, 'db'),
    databaseUrl: url('DATABASE_URL', ['postgres', 'postgresql']),
    redisUrl: url('REDIS_URL', ['redis', 'rediss']),
    redisKeyPrefix: redisKeyPrefixSetting(text('REDIS_KEY_PREFIX'), problems),
    smtpUrl: url('SMTP_URL', ['smtp', 'smtps']),
    mailFrom: text('MAIL_FROM') ?? 'Rewards Portal <no-reply@localhost>',
    cardFingerprintKey: key('CARD_FINGERPRINT_KEY'),
    tokenSigningKey: key('TOKEN_SIGNING_KEY'),
    totpEncryptionKey: key('TOTP_ENCRYPTION_KEY'),
    preauthClientId: text('PREAUTH_CLIENT_ID'),
    preauthClientSecret: text('PREAUTH_CLIENT_SECRET'),
    distDir: text('DIST_DIR') ?? 'dist',
    fixturesDir: text('FIXTURES_DIR') ?? FIXTURES_DIR,
    logLevel,
    testMode: flag('GATEWAY_TEST_MODE'),
    siteGallery: flag('SITE_GALLERY'),
    trustProxy: trustProxySetting(text('TRUST_PROXY'), problems),
    publicUrl: url('PUBLIC_URL', ['http', 'https']),
    pwnedRangeCheck: flag('PWNED_RANGE_CHECK'),
    hcaptchaSecret: text('HCAPTCHA_SECRET'),
    hcaptchaSiteKey: text('HCAPTCHA_SITE_KEY'),
    analyticsTagHosts: originList('ANALYTICS_TAG_HOSTS', text('ANALYTICS_TAG_HOSTS'), problems),
    metricsToken,
    ssoCredentialEnv: Object.fromEntries(
      Object.keys(env).flatMap((name) => (SSO_CREDENTIAL_VARIABLE.test(name) && text(name) !== undefined ? [[name, text(name) ?? '']] : [])),
    ),
  };
  return { config, problems };
}

/** Production unless NODE_ENV names development (or the test runner's "test"): a conveniences-free gateway is the default. */
function runModeSetting(value: string | undefined, problems: string[]): RunMode {
  if (value === undefined || value === 'production') return 'production';
  if (value === 'development' || value === 'test') return 'development';
  problems.push(`NODE_ENV must be "production" or "development" ("test" counts as development), got "${value}"`);
  return 'production';
}

/** Plain key characters only: the prefix goes into every key as it is, and a space or `*` would read as a pattern in redis-cli. */
function redisKeyPrefixSetting(value: string | undefined, problems: string[]): string {
  if (value === undefined) return 'gateway:limits:';
  if (/^[A-Za-z0-9:._-]{1,64}$/.test(value)) return value;
  problems.push(`REDIS_KEY_PREFIX must be 1 to 64 letters, digits or the signs : . _ -, got "${value}"`);
  return 'gateway:limits:';
}

/**
 * `true` is read here in both modes and refused by production (`run-mode.ts`, ADR 0017). Each address or
 * CIDR is checked as proxy-addr will read it, so a wrong one is a line of the start's problems, not a
 * stack trace when the server is built.
 */
function trustProxySetting(value: string | undefined, problems: string[]): boolean | number | string[] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  const addresses = value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (addresses.length > 0 && addresses.every(isAddressOrCidr)) return addresses;
  problems.push(
    `TRUST_PROXY must be "false", a hop count (1 behind one load balancer), comma-separated addresses/CIDRs of the proxies, or "true" (development only), got "${value}"`,
  );
  return false;
}

/** `10.0.0.5`, `10.0.0.0/8`, `fd00::/8`: an IP address, with a prefix length from 1 to its family's bits (proxy-addr refuses /0). */
function isAddressOrCidr(part: string): boolean {
  const [address = '', prefix, ...rest] = part.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** A comma-separated list of https origins (`https://www.googletagmanager.com`), nothing else: each goes into the CSP as it is. */
function originList(name: string, value: string | undefined, problems: string[]): string[] {
  if (value === undefined) return [];
  const origins = value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const wrong = origins.filter((origin) => !/^https:\/\/[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+(:\d{1,5})?$/i.test(origin));
  if (wrong.length > 0) problems.push(`${name} must be comma-separated https origins (https://host.example), got "${wrong.join(', ')}"`);
  return wrong.length > 0 ? [] : origins;
}
