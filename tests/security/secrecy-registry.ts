import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The secrecy scan (README "Set-up"): every gateway a test starts registers where its log and its data
 * went, so `secrecy-scan.ts` can read them all after the whole `npm test` run. One JSON line per
 * gateway; the scan's `--reset` empties it before the run.
 */
export const TEST_OUTPUT_DIR = fileURLToPath(new URL('../../test-output', import.meta.url));
export const LOG_DIR = `${TEST_OUTPUT_DIR}/logs`;
export const SECRECY_REGISTRY = `${TEST_OUTPUT_DIR}/secrecy-registry.jsonl`;

export interface RegisteredGateway {
  /** The gateway's whole stdout and stderr. */
  log: string;
  /** DATA_DIR: the embedded database under `db/` (when no DATABASE_URL), the outbox under `outbox/`. */
  dataDir?: string;
  /** A PostgreSQL database the gateway wrote to instead of PGlite. */
  databaseUrl?: string;
}

export function registerGateway(entry: RegisteredGateway): void {
  mkdirSync(dirname(SECRECY_REGISTRY), { recursive: true });
  appendFileSync(SECRECY_REGISTRY, `${JSON.stringify(entry)}\n`);
}
