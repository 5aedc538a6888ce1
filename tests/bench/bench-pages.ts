import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { REPO_ROOT } from '../e2e/support/paths';

/** One chunk of a Vite build manifest (`build.manifest: true`). */
export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export function readManifest(outDir: string): Manifest {
  return JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
}

/** Bytes a first visit downloads for a chunk: the chunk and every chunk it imports statically. */
export function firstLoadJsGzip(manifest: Manifest, key: string, outDir: string, entryKeys: readonly string[]): number {
  const files = new Set<string>();
  const visit = (chunkKey: string): void => {
    const chunk = manifest[chunkKey];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const entryKey of entryKeys) visit(entryKey);
  visit(key);
  let total = 0;
  for (const file of files) total += gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length;
  return total;
}

/**
 * How a bench page is built: `app` by the app's own Vite config (its lean RJSF registry, ADR 0016, and its
 * aliases), `stock` by the same Vite with only the React plugin and the app's base and target, so
 * RJSF is the package as published: what a plain RJSF page costs.
 */
export type BenchPageBuild = 'app' | 'stock';

/** Builds `page` (an HTML file of tests/bench/) alone into a fresh temporary folder and answers the folder. */
export async function buildBenchPage(page: string, kind: BenchPageBuild): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'portal-bench-page-'));
  const output = { outDir, manifest: true, emptyOutDir: true, rolldownOptions: { input: `${REPO_ROOT}/tests/bench/${page}` } };
  await build(
    kind === 'app'
      ? { root: REPO_ROOT, configFile: `${REPO_ROOT}/vite.config.ts`, logLevel: 'error', build: output }
      : { root: REPO_ROOT, configFile: false, logLevel: 'error', base: '/', plugins: [react()], build: { ...output, sourcemap: false, target: 'es2022' } },
  );
  return outDir;
}

/** The built page's entry chunk (the key of its HTML file in the manifest). */
export function entryChunkKey(manifest: Manifest): string {
  const key = Object.keys(manifest).find((candidate) => manifest[candidate]?.isEntry);
  if (!key) throw new Error('the bench page build has no entry chunk');
  return key;
}
