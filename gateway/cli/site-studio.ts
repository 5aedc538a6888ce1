/**
 * `npm run studio`: the site studio (docs/decisions/0027-site-studio.md, README "The site studio"), where a
 * configuration author writes a site file and sees its forms and `sites:check`'s verdict as they type. A process of
 * its own, in development only: it runs TypeScript (tsx) and the simulation's generator, development dependencies a
 * production install does not have, and it writes site files.
 *
 * Environment: PORT (default 5175; 0 picks a free one), HOST (loopback only), STUDIO_SITES_DIR (where saves go,
 * default fixtures/sites), STUDIO_DIST_DIR (the app build with the studio, default build/studio-app).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLoopback, developmentBanner } from '../run-mode';
import { publicFileIn } from '../site-files/site-file-check';
import { readSettingHelp } from '../features/site-studio/setting-help';
import { createStudioServer, studioExposure, studioStartRefusals } from '../features/site-studio/studio-server';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const env = process.env;
const host = env.HOST ?? '127.0.0.1';
const refusals = [
  ...studioStartRefusals(env),
  ...(isLoopback(host) ? [] : [`HOST=${host} is not a loopback address: the studio listens on this machine only`]),
];
if (refusals.length > 0) {
  process.stderr.write(`${refusals.join('\n')}\n`);
  process.exit(1);
}
const sitesDir = resolve(env.STUDIO_SITES_DIR ?? resolve(REPO_ROOT, 'fixtures/sites'));
const app = await createStudioServer({
  sitesDir,
  bundledSitesDir: resolve(REPO_ROOT, 'fixtures/sites'),
  contentDir: resolve(REPO_ROOT, 'fixtures/content'),
  publicFileExists: publicFileIn(resolve(REPO_ROOT, 'public')),
  help: readSettingHelp(resolve(REPO_ROOT, 'docs/decisions/0001-site-fixture-format.md')),
  now: () => new Date(),
  distDir: resolve(env.STUDIO_DIST_DIR ?? resolve(REPO_ROOT, 'build/studio-app')),
});
const address = await app.listen({ host, port: Number(env.PORT ?? 5175) });
process.stderr.write(`${developmentBanner([studioExposure(sitesDir)])}\nsite studio: ${address}/studio\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
