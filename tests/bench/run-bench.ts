/**
 * `npm run bench`: the project's speed and size figures as ONE table, each next to a reference measured in the
 * same run (BenchRow.reference) and its target
 * (README "Benchmark"). Figures are printed, never asserted (DEVELOPERS.md: shared,
 * noisy machines). `npm run bench -- --only size,keystroke` runs some groups:
 * size, keystroke, lighthouse, roundtrips, gateway, forms, enumeration.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { buildFormSchema } from '../../schemas/forms/build-form-schema';
import { FORM_NAMES } from '../../schemas/forms/form-names';
import { validateFormData } from '../../schemas/forms/validate-form';
import type { SiteConfig } from '../../schemas/site-config/types';
import { CHROMIUM_PATH } from '../e2e/support/browser';
import { REPO_ROOT } from '../e2e/support/paths';
import { listSiteFixtures } from '../support/site-fixtures';
import { accountEnumerationRows } from './account-enumeration-timing';
import { buildBenchPage, entryChunkKey, firstLoadJsGzip, readManifest, type Manifest } from './bench-pages';
import { ascending, formatTable, percentile, ratio, startBenchPortal, type BenchNote, type BenchRow } from './bench-table';
import { gatewayLoadRows } from './gateway-load';
import { keystrokeRows } from './keystroke-to-paint';
import { lighthouseRows } from './lighthouse-scores';
import { startReferencePages } from './reference-pages';
import { roundTripRows } from './round-trips';

const GROUPS = ['size', 'keystroke', 'lighthouse', 'roundtrips', 'gateway', 'forms', 'enumeration'] as const;
type Group = (typeof GROUPS)[number];
/** The bench renders the largest form in this locale, as the schema figures build it. */
const BENCH_LOCALE = 'en_us';
const LOGIN_BUDGET_KB = 110;
const REGISTRATION_BUDGET_KB = 170;

function selectedGroups(argv: readonly string[]): Set<Group> {
  const index = argv.indexOf('--only');
  if (index < 0) return new Set(GROUPS);
  const names = (argv[index + 1] ?? '').split(',').filter((name) => name !== '');
  const unknown = names.filter((name) => !(GROUPS as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    throw new Error(`--only takes a comma-separated list of ${GROUPS.join(', ')}; got "${argv[index + 1] ?? ''}"`);
  }
  return new Set(names as Group[]);
}

/** The production build (`vite build`) the size figures read and the gateways of the browser figures serve. */
async function buildApp(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'portal-bench-build-'));
  await build({
    root: REPO_ROOT,
    configFile: `${REPO_ROOT}/vite.config.ts`,
    logLevel: 'error',
    build: { outDir, manifest: true, emptyOutDir: true },
  });
  return outDir;
}

/** The app's module in the manifest: a dynamic entry of the page's boot script. */
const APP_MAIN_KEY = 'src/main.tsx';

function routeChunkKey(manifest: Manifest, screen: string): string {
  const key = Object.keys(manifest).find((candidate) => manifest[candidate]?.isDynamicEntry && candidate.endsWith(`/${screen}.tsx`));
  if (!key) throw new Error(`the build has no route chunk for ${screen}`);
  return key;
}

/** First-load JS of the routes with a budget (ADR 0005: registration 170 KB; ADR 0016: login 110 KB), next to React alone. */
function bundleRows(outDir: string, reactFloor: number): BenchRow[] {
  const manifest = readManifest(outDir);
  // The page's script (src/boot.ts) imports the app (src/main.tsx) once the server's page has painted (ADR 0024):
  // both are every visit's first load.
  const entryKeys = [entryChunkKey(manifest), APP_MAIN_KEY].filter((key) => manifest[key] !== undefined);
  const entry = firstLoadJsGzip(manifest, APP_MAIN_KEY, outDir, entryKeys);
  const login = firstLoadJsGzip(manifest, routeChunkKey(manifest, 'LoginScreen'), outDir, entryKeys);
  const registration = firstLoadJsGzip(manifest, routeChunkKey(manifest, 'RegistrationScreen'), outDir, entryKeys);
  const routes = Object.entries(manifest)
    .filter(([key, chunk]) => chunk.isDynamicEntry && key !== APP_MAIN_KEY)
    .map(([key, chunk]) => ({ name: chunk.name ?? key, bytes: firstLoadJsGzip(manifest, key, outDir, entryKeys) }))
    .sort((a, b) => b.bytes - a.bytes);
  const heaviest = routes[0];
  return [
    {
      figure: 'first-load JS, /login (entry + LoginScreen chunk)',
      value: kb(login),
      ...reactFloorOf(login, reactFloor),
      target: `<= ${LOGIN_BUDGET_KB} KB gzip`,
      met: login <= LOGIN_BUDGET_KB * 1024,
    },
    {
      figure: 'first-load JS, /registration (entry + RegistrationScreen chunk)',
      value: kb(registration),
      ...reactFloorOf(registration, reactFloor),
      target: `<= ${REGISTRATION_BUDGET_KB} KB gzip`,
      met: registration <= REGISTRATION_BUDGET_KB * 1024,
    },
    { figure: 'first-load JS, app entry alone (every route)', value: kb(entry), ...reactFloorOf(entry, reactFloor), target: '', met: null },
    ...(heaviest
      ? [
          {
            figure: `first-load JS, heaviest route (${heaviest.name})`,
            value: kb(heaviest.bytes),
            ...reactFloorOf(heaviest.bytes, reactFloor),
            target: '',
            met: null,
          },
        ]
      : []),
  ];
}

/** First-load JS (gzip bytes) of a bench page of tests/bench/, built alone by the app's Vite config. */
async function pageFirstLoadBytes(page: string): Promise<number> {
  const outDir = await buildBenchPage(page, 'app');
  try {
    const manifest = readManifest(outDir);
    return firstLoadJsGzip(manifest, entryChunkKey(manifest), outDir, []);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** First-load JS of the largest site's registration form drawn by SiteForm alone (README "Benchmark"). */
function registrationFormRow(bytes: number, reactFloor: number): BenchRow {
  return {
    figure: 'first-load JS, largest registration form alone (SiteForm + widgets + React)',
    value: kb(bytes),
    ...reactFloorOf(bytes, reactFloor),
    target: `<= ${REGISTRATION_BUDGET_KB} KB gzip`,
    met: bytes <= REGISTRATION_BUDGET_KB * 1024,
  };
}

/** The size figures' reference column and ratio: React + ReactDOM alone (react-floor-page.tsx). */
function reactFloorOf(bytes: number, reactFloor: number): Pick<BenchRow, 'reference' | 'ratio'> {
  return { reference: `React + ReactDOM alone: ${kb(reactFloor)}`, ratio: ratio(bytes, reactFloor) };
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB gzip`;
}

/** The registration with the most fields across the fixtures (the first such site by id on a tie). */
function largestRegistration(sites: readonly SiteConfig[]): { site: SiteConfig; schema: ReturnType<typeof buildFormSchema>['schema'] } {
  const largest = sites
    .map((site) => ({ site, schema: buildFormSchema(site, BENCH_LOCALE, 'registration').schema }))
    .sort((a, b) => Object.keys(b.schema.properties ?? {}).length - Object.keys(a.schema.properties ?? {}).length)[0];
  if (!largest) throw new Error('fixtures/sites holds no site');
  return largest;
}

/**
 * Schema build time per site: every form of a site, built cold (a fresh call, as the browser does
 * once per site and the gateway once per site/locale/form), timed over repeated runs.
 */
function schemaRows(): BenchRow[] {
  const sites = listSiteFixtures();
  /** Median of 50 timed runs of `work` for each site, ascending. */
  const perSiteMedians = (work: (site: SiteConfig) => void): number[] =>
    sites
      .map((site) => {
        const runs: number[] = [];
        for (let run = 0; run < 50; run += 1) {
          const started = performance.now();
          work(site);
          runs.push(performance.now() - started);
        }
        return percentile(ascending(runs), 0.5);
      })
      .sort((a, b) => a - b);
  const perSite = perSiteMedians((site) => {
    for (const form of FORM_NAMES) buildFormSchema(site, BENCH_LOCALE, form);
  });
  // The reference: one copy of the site's configuration, the least any reading of it costs.
  const perSiteCopy = perSiteMedians((site) => JSON.parse(JSON.stringify(site)) as unknown);

  const largest = largestRegistration(sites);
  const timedFirstValidation = (schema: ReturnType<typeof buildFormSchema>['schema']): number => {
    const started = performance.now();
    validateFormData(schema, {}, { today: new Date() });
    return performance.now() - started;
  };
  const firstValidation = timedFirstValidation(largest.schema);
  const login = buildFormSchema(largest.site, BENCH_LOCALE, 'login').schema;
  const loginValidation = timedFirstValidation(login);
  const median = percentile(perSite, 0.5);
  const slowest = perSite.at(-1) ?? 0;
  return [
    {
      figure: `schema build per site, all ${FORM_NAMES.length} forms (median of ${sites.length} sites)`,
      value: `${median.toFixed(3)} ms`,
      reference: `a JSON copy of the site: ${percentile(perSiteCopy, 0.5).toFixed(3)} ms`,
      ratio: ratio(median, percentile(perSiteCopy, 0.5)),
      target: '<= 2 ms',
      met: median <= 2,
    },
    {
      figure: 'schema build per site, all forms (slowest site)',
      value: `${slowest.toFixed(3)} ms`,
      reference: `a JSON copy of the site: ${(perSiteCopy.at(-1) ?? 0).toFixed(3)} ms`,
      ratio: ratio(slowest, perSiteCopy.at(-1) ?? 0),
      target: '<= 2 ms',
      met: slowest <= 2,
    },
    {
      figure: `first validation of the largest form (${largest.site.siteId} registration)`,
      value: `${firstValidation.toFixed(3)} ms`,
      reference: `its login form (${Object.keys(login.properties ?? {}).length} fields), validated next: ${loginValidation.toFixed(3)} ms`,
      ratio: ratio(firstValidation, loginValidation),
      target: '<= 1 ms',
      met: firstValidation <= 1,
    },
  ];
}

function chromiumVersion(): string {
  try {
    return execFileSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return `unknown (${CHROMIUM_PATH} --version failed)`;
  }
}

const groups = selectedGroups(process.argv.slice(2));
const rows: BenchRow[] = [];
const notes: BenchNote[] = [];
const machine = `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), load ${loadavg()
  .map((load) => load.toFixed(1))
  .join(' ')}`;
const { site: largestSite } = largestRegistration(listSiteFixtures());

const browserGroups = groups.has('keystroke') || groups.has('lighthouse') || groups.has('roundtrips');
const needsBuild = groups.has('size') || groups.has('gateway') || browserGroups;
const distDir = needsBuild ? await buildApp() : null;
try {
  if (distDir && groups.has('size')) {
    const reactFloor = await pageFirstLoadBytes('react-floor-page.html');
    rows.push(...bundleRows(distDir, reactFloor), registrationFormRow(await pageFirstLoadBytes('registration-form-page.html'), reactFloor));
  }
  if (distDir && browserGroups) {
    // The production build behind a gateway with production defaults (no test mode), embedded PGlite.
    const portal = await startBenchPortal({ DIST_DIR: distDir });
    const reference = groups.has('lighthouse') || groups.has('roundtrips') ? await startReferencePages(largestSite, BENCH_LOCALE) : null;
    try {
      if (groups.has('keystroke')) rows.push(...(await keystrokeRows(portal.baseUrl, largestSite.siteId, BENCH_LOCALE)));
      for (const [group, measure] of [
        ['lighthouse', lighthouseRows],
        ['roundtrips', roundTripRows],
      ] as const) {
        if (!reference || !groups.has(group)) continue;
        const result = await measure(portal.baseUrl, largestSite.siteId, BENCH_LOCALE, reference);
        rows.push(...result.rows);
        notes.push(...result.notes);
      }
    } finally {
      await reference?.stop();
      await portal.stop();
    }
  }
  if (groups.has('forms')) rows.push(...schemaRows());
  if (distDir && groups.has('gateway')) rows.push(...(await gatewayLoadRows(distDir)));
  if (groups.has('enumeration')) rows.push(...(await accountEnumerationRows()));
} finally {
  if (distDir) rmSync(distDir, { recursive: true, force: true });
}

console.log(
  `bench ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; ${machine}; node ${process.version}; ${chromiumVersion()}; gateway database: embedded PGlite${process.env.TEST_DATABASE_URL ? ' (reads also on PostgreSQL, TEST_DATABASE_URL)' : ''}`,
);
console.log(formatTable(rows));
for (const note of notes) {
  console.log(`\n${note.title}:`);
  for (const line of note.lines) console.log(`  - ${line}`);
}
