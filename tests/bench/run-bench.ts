/**
 * `npm run bench`: prints the project's speed and size figures as one small table (issue 2 item 10).
 * Figures are printed, never asserted (DEVELOPERS.md: shared, noisy machines).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { buildFormSchema } from '../../schemas/forms/build-form-schema';
import { FORM_NAMES } from '../../schemas/forms/form-names';
import { validateFormData } from '../../schemas/forms/validate-form';
import { REPO_ROOT } from '../e2e/support/paths';
import { accountEnumerationRows } from './account-enumeration-timing';
import { listSiteFixtures } from '../support/site-fixtures';

interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

interface Row {
  figure: string;
  value: string;
  target: string;
}

/** Bytes a first visit downloads for a chunk: the chunk and every chunk it imports statically. */
function firstLoadJsGzip(manifest: Manifest, key: string, outDir: string, entryKey: string | null): number {
  const files = new Set<string>();
  const visit = (chunkKey: string): void => {
    const chunk = manifest[chunkKey];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  if (entryKey) visit(entryKey);
  visit(key);
  let total = 0;
  for (const file of files) total += gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length;
  return total;
}

async function bundleRows(): Promise<Row[]> {
  const outDir = mkdtempSync(join(tmpdir(), 'portal-bench-build-'));
  try {
    await build({
      root: REPO_ROOT,
      configFile: `${REPO_ROOT}/vite.config.ts`,
      logLevel: 'error',
      build: { outDir, manifest: true, emptyOutDir: true },
    });
    const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
    const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry) ?? null;
    const rows: Row[] = [];
    if (entryKey) {
      rows.push({ figure: 'first-load JS, app entry (every route)', value: kb(firstLoadJsGzip(manifest, entryKey, outDir, null)), target: '' });
    }
    for (const [key, chunk] of Object.entries(manifest)) {
      if (!chunk.isDynamicEntry) continue;
      rows.push({ figure: `first-load JS, route chunk ${chunk.src ?? chunk.name ?? key}`, value: kb(firstLoadJsGzip(manifest, key, outDir, entryKey)), target: '' });
    }
    return rows;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** First-load JS of the largest site's registration form drawn by SiteForm (issue 3 item 9). */
async function registrationFormRow(): Promise<Row> {
  const outDir = mkdtempSync(join(tmpdir(), 'portal-bench-form-'));
  try {
    await build({
      root: REPO_ROOT,
      configFile: `${REPO_ROOT}/vite.config.ts`,
      logLevel: 'error',
      build: { outDir, manifest: true, emptyOutDir: true, rollupOptions: { input: `${REPO_ROOT}/tests/bench/registration-form-page.html` } },
    });
    const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
    const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
    const bytes = entryKey ? firstLoadJsGzip(manifest, entryKey, outDir, null) : 0;
    return { figure: 'first-load JS, registration form of the largest site (SiteForm + widgets + React)', value: kb(bytes), target: '<= 170 KB gzip' };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB gzip`;
}

function printTable(rows: Row[]): void {
  const widths = [
    Math.max(6, ...rows.map((row) => row.figure.length)),
    Math.max(5, ...rows.map((row) => row.value.length)),
    Math.max(6, ...rows.map((row) => row.target.length)),
  ] as const;
  const line = (cells: readonly string[]) => `| ${cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join(' | ')} |`;
  console.log(line(['figure', 'value', 'target']));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line([row.figure, row.value, row.target]));
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

/**
 * Schema build time per site: every form of a site, built cold (a fresh call, as the browser does
 * once per site and the gateway once per site/locale/form), timed over repeated runs.
 */
function schemaRows(): Row[] {
  const sites = listSiteFixtures();
  const perSite: number[] = [];
  for (const site of sites) {
    const runs: number[] = [];
    for (let run = 0; run < 50; run += 1) {
      const started = performance.now();
      for (const form of FORM_NAMES) buildFormSchema(site, 'en_us', form);
      runs.push(performance.now() - started);
    }
    perSite.push(percentile(runs.sort((a, b) => a - b), 0.5));
  }
  perSite.sort((a, b) => a - b);

  // The largest form: the registration with the most fields across the fixtures.
  const largest = sites
    .map((site) => ({ site, schema: buildFormSchema(site, 'en_us', 'registration').schema }))
    .sort((a, b) => Object.keys(b.schema.properties ?? {}).length - Object.keys(a.schema.properties ?? {}).length)[0];
  let firstValidation = 0;
  if (largest) {
    const started = performance.now();
    validateFormData(largest.schema, {}, { today: new Date() });
    firstValidation = performance.now() - started;
  }
  return [
    { figure: `schema build per site, all ${FORM_NAMES.length} forms (median of ${sites.length} sites)`, value: `${percentile(perSite, 0.5).toFixed(3)} ms`, target: '<= 2 ms' },
    { figure: 'schema build per site, all forms (slowest site)', value: `${(perSite.at(-1) ?? 0).toFixed(3)} ms`, target: '<= 2 ms' },
    { figure: `first validation of the largest form (${largest?.site.siteId} registration)`, value: `${firstValidation.toFixed(3)} ms`, target: '<= 1 ms' },
  ];
}

const rows = [...(await bundleRows()), await registrationFormRow(), ...schemaRows(), ...(await accountEnumerationRows())];
console.log(`bench ${new Date().toISOString().slice(0, 10)} on ${process.platform} node ${process.version}`);
printTable(rows);
