/**
 * `npm start` (development) and `npm run start:prod` (production, ADR 0018): the reference gateway
 * as one process. Reads the environment, loads and checks the fixtures, refuses to start while the
 * mode's rules are broken, opens the database (embedded PGlite under DATA_DIR/db, or PostgreSQL when
 * DATABASE_URL is set), applies migrations, seeds the demo users on the first development start,
 * then serves the API and the built app until SIGTERM/SIGINT.
 */
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { hcaptchaVerifier, offlineCaptchaVerifier } from './account/captcha-verifier';
import { offlineCompromisedCheck, rangeQueryCompromisedCheck } from './account/compromised-passwords';
import { DEV_PREAUTH_CLIENT, type AuthSetup } from './auth/auth-services';
import { ConfigError, readSettings, type GatewayConfig } from './config';
import type { Database } from './db/database';
import { migrate } from './db/migrate';
import { openPglite } from './db/open-pglite';
import { openPostgres } from './db/open-postgres';
import { holdPgliteFolder, PgliteHeldError } from './db/pglite-holder';
import { seedDemoCashback, seedDemoData } from './db/seed-demo-data';
import { FixtureError, loadFixtures, type Fixtures } from './site-files/load-fixtures';
import type { CounterStore } from './limits/counter-store';
import { MemoryCounterStore } from './limits/memory-counter-store';
import { RedisCounterStore } from './limits/redis-counter-store';
import { createLogger } from './logging/create-logger';
import { FileOutbox } from './mail/file-outbox';
import { routeByChannel } from './mail/mailer';
import { createSmtpMailer } from './mail/smtp-mailer';
import { createCardFingerprinter } from './security/card-fingerprint';
import { KeyRingError, loadRootKeys, ServerKeyRings } from './security/key-ring';
import { makeDataDirPrivate, makeDataFilesPrivate, restrictNewFiles } from './security/private-data-dir';
import { developmentBanner, developmentExposures, PRODUCTION_HEADING, ssoSites, startRefusals } from './run-mode';
import { buildGateway } from './server';
import { readSsoCredentials } from './sso/client-credentials';
import { readSamlKeys } from './sso/saml-keys';
import { samlSites } from './sso/saml-sites';
import { AdjustableClock } from './time/clock';

/**
 * README "Stopping": a shutdown that takes longer than this (a stuck request) ends the process anyway, with
 * exit code 1. Below Kubernetes' default terminationGracePeriodSeconds (30 s), so the gateway's own clean-up
 * runs before the kubelet's SIGKILL.
 */
const SHUTDOWN_GRACE_MS = 10_000;
/** What a clean stop closes, in order. */
const SHUTDOWN_STEPS = ['requests and account jobs', 'counter store', 'database', 'file modes'] as const;
type ShutdownStep = (typeof SHUTDOWN_STEPS)[number];

async function main(): Promise<void> {
  restrictNewFiles();
  const { config, problems } = readSettings(process.env);
  let fixtures: Fixtures;
  try {
    fixtures = await loadFixtures(config.fixturesDir);
  } catch (error) {
    failStart(error, problems);
    return;
  }
  // Every problem of the environment and of the mode at once, before anything is written.
  // ADR 0015: a confidential SSO client without its secret or key could sign no one in, in either mode.
  const sso = await readSsoCredentials(ssoSites(fixtures), config.ssoCredentialEnv);
  // docs/decisions/0028-sso-saml.md "Keys": a SAML site's key pair, from the environment as the OIDC credentials are.
  const saml = readSamlKeys(samlSites(fixtures), config.ssoCredentialEnv);
  problems.push(...startRefusals(config, fixtures), ...sso.problems, ...saml.problems);
  if (problems.length > 0) {
    failStart(new ConfigError(problems, config.mode === 'production' ? PRODUCTION_HEADING : undefined));
    return;
  }
  const logger = createLogger({ level: config.logLevel });
  const development = config.mode === 'development';
  if (development) {
    const exposures = developmentExposures(config, fixtures);
    process.stderr.write(`${developmentBanner(exposures)}\n`);
    logger.warn({ mode: config.mode, exposes: exposures }, 'development mode: not for production');
  }

  let db: Database | undefined;
  let counters: CounterStore | undefined;
  let releasePglite: (() => Promise<void>) | undefined;
  try {
    await makeDataDirPrivate(config.dataDir);
    // PGlite keeps no lock of its own: a second process on the folder (another gateway, `npm run admin`) would corrupt it.
    if (!config.databaseUrl) releasePglite = await holdPgliteFolder(config.embeddedDbDir, 'gateway');
    db = config.databaseUrl
      ? await openPostgres({
          connectionString: config.databaseUrl,
          onIdleConnectionError: (error) => logger.error({ err: error }, 'idle PostgreSQL connection failed'),
        })
      : await openPglite(config.embeddedDbDir);
    const applied = await migrate(db);
    if (db.kind === 'postgres' && config.cardFingerprintKey === undefined) {
      logger.warn('CARD_FINGERPRINT_KEY is not set: using a key file under DATA_DIR; every instance on this database needs the same key');
    }
    // ADR 0026: the environment's keys are the rings' roots and first entries; the rings themselves are in the database.
    const keys = new ServerKeyRings(
      await loadRootKeys(
        { 'token-signing': config.tokenSigningKey, 'totp-encryption': config.totpEncryptionKey, 'card-fingerprint': config.cardFingerprintKey },
        config.dataDir,
      ),
    );
    await keys.refresh(db);
    const clock = new AdjustableClock();
    // Demo users (published passwords) only ever in development.
    const seededUsers = development ? await seedDemoData(db, fixtures.demoUsers, createCardFingerprinter(keys.card, clock), fixtures.binRanges) : 0;
    const seededCashbackLines = development ? await seedDemoCashback(db, fixtures.cashbackStatements) : 0;
    logger.info(
      { mode: config.mode, database: db.kind, migrationsApplied: applied, seededUsers, seededCashbackLines, sites: fixtures.sites.size },
      'gateway ready to listen',
    );

    const sharedKeysNeeded = db.kind === 'postgres' && (config.tokenSigningKey === undefined || config.totpEncryptionKey === undefined);
    if (sharedKeysNeeded)
      logger.warn('TOKEN_SIGNING_KEY or TOTP_ENCRYPTION_KEY is not set: using key files under DATA_DIR; every instance on this database needs the same keys');
    counters = config.redisUrl ? new RedisCounterStore(config.redisUrl, config.redisKeyPrefix, { logger }) : new MemoryCounterStore();
    const auth = authSetup(config, counters, keys, clock, logger);
    logger.info({ counters: config.redisUrl ? 'redis' : 'in-process', mail: config.smtpUrl ? 'smtp' : 'development outbox' }, 'sign-in services ready');

    const app = await buildGateway({
      mode: config.mode,
      db,
      fixtures,
      distDir: config.distDir,
      logger,
      testMode: config.testMode,
      siteGallery: config.siteGallery,
      trustProxy: config.trustProxy,
      auth,
      ssoCredentials: sso.credentials,
      samlKeys: saml.keys,
      ...(config.metricsToken === undefined ? {} : { metricsToken: config.metricsToken }),
      contentSecurity: { captcha: config.hcaptchaSecret !== undefined, analyticsHosts: config.analyticsTagHosts },
    });
    await makeDataFilesPrivate(config.dataDir);
    await app.listen({ port: config.port, host: config.host, listenTextResolver: (address) => `gateway listening on ${address}` });

    const openDb = db;
    const openCounters = counters;
    let stopping = false;
    const stop = async (signal: NodeJS.Signals): Promise<void> => {
      if (stopping) process.exit(1); // a second Ctrl-C means "now"
      stopping = true;
      logger.info({ signal, graceMs: SHUTDOWN_GRACE_MS }, 'shutting down: not ready, finishing in-flight requests and the account job in hand');
      // README "Stopping": each step leaves this list once done; past the grace the process ends anyway and says what was left.
      const stillOpen = new Set<string>(SHUTDOWN_STEPS);
      setTimeout(() => {
        app.server.getConnections((_error, openConnections) => {
          logger.error({ stillOpen: [...stillOpen], openConnections }, 'shutdown took too long; exiting');
          process.exit(1);
        });
      }, SHUTDOWN_GRACE_MS).unref();
      const step = async (name: ShutdownStep, work: () => Promise<void>): Promise<void> => {
        await work();
        stillOpen.delete(name);
      };
      try {
        // Readiness answers 503 from here on; no new connection is accepted, idle ones close, busy ones close after their answer.
        await step('requests and account jobs', () => app.close());
        await step('counter store', () => openCounters.close());
        await step('database', async () => {
          await openDb.close(); // ADR 0003: PGlite must close for its data directory to stay consistent
          await releasePglite?.();
        });
        await step('file modes', () => makeDataFilesPrivate(config.dataDir));
        logger.info('stopped');
        process.exit(0);
      } catch (error) {
        logger.error({ err: error, stillOpen: [...stillOpen] }, 'shutdown failed');
        process.exit(1);
      }
    };
    process.on('SIGTERM', (signal) => void stop(signal));
    process.on('SIGINT', (signal) => void stop(signal));
  } catch (error) {
    await counters?.close().catch(() => undefined);
    await db?.close().catch(() => undefined);
    await releasePglite?.().catch(() => undefined);
    if (error instanceof PgliteHeldError) {
      logger.fatal({ holder: error.holder }, 'the embedded database is held by another running process; stop it first (README "Admin command")');
      process.exitCode = 1;
      return;
    }
    if (error instanceof KeyRingError) {
      logger.fatal(error.message);
      process.exitCode = 1;
      return;
    }
    if (error instanceof FixtureError || error instanceof ConfigError) {
      failStart(error);
      return;
    }
    logger.fatal({ err: error }, 'gateway failed to start');
    process.exitCode = 1;
  }
}

/** ADR 0008's sign-in services from the environment: keys, mail (SMTP or the outbox under DATA_DIR), counters. */
function authSetup(config: GatewayConfig, counters: CounterStore, keys: ServerKeyRings, clock: AdjustableClock, logger: FastifyBaseLogger): AuthSetup {
  const outbox = new FileOutbox(join(config.dataDir, 'outbox'), clock);
  const email = config.smtpUrl ? createSmtpMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom }) : outbox;
  return {
    clock,
    counters,
    mailer: routeByChannel(email, outbox),
    devOutbox: config.smtpUrl ? null : outbox,
    keys,
    preauthClient: { id: config.preauthClientId ?? DEV_PREAUTH_CLIENT.id, secret: config.preauthClientSecret ?? DEV_PREAUTH_CLIENT.secret },
    // ADR 0013: hCaptcha's siteverify when a secret is configured, the offline verifier otherwise.
    captchaVerifier: config.hcaptchaSecret
      ? hcaptchaVerifier({ secret: config.hcaptchaSecret, siteKey: config.hcaptchaSiteKey, onFailure: (reason) => logger.warn(reason) })
      : offlineCaptchaVerifier,
    compromisedPasswords: config.pwnedRangeCheck ? rangeQueryCompromisedCheck(offlineCompromisedCheck()) : offlineCompromisedCheck(),
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
  };
}

/** Configuration and fixture mistakes are for people: plain text on stderr, one line per problem, exit 1. */
function failStart(error: unknown, environmentProblems: readonly string[] = []): void {
  if (!(error instanceof ConfigError) && !(error instanceof FixtureError)) throw error;
  if (environmentProblems.length > 0) process.stderr.write(`${new ConfigError(environmentProblems).message}\n`);
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}

await main();
