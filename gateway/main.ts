/**
 * `npm start`: the reference gateway as one process. Reads the environment, loads and checks the
 * fixtures, opens the database (embedded PGlite under DATA_DIR/db, or PostgreSQL when
 * DATABASE_URL is set), applies migrations, seeds the demo users on first start, then serves
 * the API and the built app until SIGTERM/SIGINT.
 */
import { ConfigError, readConfig, type GatewayConfig } from './config';
import type { Database } from './db/database';
import { migrate } from './db/migrate';
import { openPglite } from './db/open-pglite';
import { openPostgres } from './db/open-postgres';
import { seedDemoData } from './db/seed-demo-data';
import { FixtureError, loadFixtures } from './fixtures/load-fixtures';
import { createLogger } from './logging/create-logger';
import { createCardFingerprinter, loadCardFingerprintKey } from './security/card-fingerprint';
import { buildGateway } from './server';

/** A shutdown that takes longer than this (a stuck request) ends the process anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config: GatewayConfig;
  try {
    config = readConfig(process.env);
  } catch (error) {
    return failStart(error);
  }
  const logger = createLogger({ level: config.logLevel });

  let db: Database | undefined;
  try {
    const fixtures = await loadFixtures();
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
    const key = await loadCardFingerprintKey({ envValue: config.cardFingerprintKey, dataDir: config.dataDir });
    const seededUsers = await seedDemoData(db, fixtures.demoUsers, createCardFingerprinter(key));
    logger.info({ database: db.kind, migrationsApplied: applied, seededUsers, sites: fixtures.sites.size }, 'gateway ready to listen');

    const app = await buildGateway({ db, fixtures, distDir: config.distDir, logger, testMode: config.testMode, siteGallery: config.siteGallery });
    await app.listen({ port: config.port, host: config.host, listenTextResolver: (address) => `gateway listening on ${address}` });

    const openDb = db;
    let stopping = false;
    const stop = async (signal: NodeJS.Signals): Promise<void> => {
      if (stopping) process.exit(1); // a second Ctrl-C means "now"
      stopping = true;
      logger.info({ signal }, 'shutting down: finishing in-flight requests');
      setTimeout(() => {
        logger.error('shutdown took too long; exiting');
        process.exit(1);
      }, SHUTDOWN_GRACE_MS).unref();
      try {
        await app.close(); // stops accepting, waits for in-flight requests
        await openDb.close(); // PGlite must close for its data directory to stay consistent
        logger.info('stopped');
        process.exit(0);
      } catch (error) {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      }
    };
    process.on('SIGTERM', (signal) => void stop(signal));
    process.on('SIGINT', (signal) => void stop(signal));
  } catch (error) {
    await db?.close().catch(() => undefined);
    if (error instanceof FixtureError) return failStart(error);
    logger.fatal({ err: error }, 'gateway failed to start');
    process.exitCode = 1;
  }
}

/** Configuration and fixture mistakes are for people: plain text on stderr, exit 1. */
function failStart(error: unknown): void {
  if (!(error instanceof ConfigError) && !(error instanceof FixtureError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}

await main();
