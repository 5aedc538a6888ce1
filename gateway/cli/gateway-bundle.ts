/**
 * The gateway as plain JavaScript (DESIGN asks for built JavaScript; ADR 0018): esbuild bundles of
 * `gateway/main.ts` and of the admin command `gateway/cli/admin.ts`, packages left to node_modules, the SQL
 * migrations copied beside them.
 */
import { cp, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
/** Where `npm run build` puts the gateway; `npm start` and `npm run start:prod` run `node build/gateway/main.js`. */
export const GATEWAY_BUILD_DIR = resolve(REPO_ROOT, 'build/gateway');

/**
 * Bundles the gateway into `outDir/main.js` (and the admin command into `outDir/admin.js`). Each bundle finds its files relative to itself as the sources
 * do: `./migrations/` (gateway/db/migrate.ts) and `../../fixtures/` (the bundled fixtures and the common
 * passwords list), so `outDir` must sit two folders below the repository root, as `build/gateway` does.
 */
export async function bundleGateway(outDir: string): Promise<string> {
  const target = resolve(outDir);
  if (resolve(target, '../..') !== REPO_ROOT)
    throw new Error(`the gateway bundle must sit two folders below ${REPO_ROOT} (it reads ../../fixtures/), not in ${target}`);
  await rm(target, { recursive: true, force: true });
  const entry = resolve(target, 'main.js');
  // The admin command (README "Admin command") beside it as admin.js, so a production install, without tsx, runs it
  // as `npm run admin:prod`; it finds the migrations and fixtures as main.js does.
  await build({
    entryPoints: { main: resolve(REPO_ROOT, 'gateway/main.ts'), admin: resolve(REPO_ROOT, 'gateway/cli/admin.ts') },
    outdir: target,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    logLevel: 'warning',
  });
  await cp(resolve(REPO_ROOT, 'gateway/db/migrations'), resolve(target, 'migrations'), { recursive: true });
  return entry;
}
