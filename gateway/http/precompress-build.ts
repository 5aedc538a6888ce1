import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip, type BrotliOptions } from 'node:zlib';
import { SERVER_BUILD_FOLDER } from '../../schemas/pages/server-page';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text files worth compressing; images and fonts of the build are compressed already. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.webmanifest']);
/** Below this a compressed copy saves less than its own headers. */
const MIN_BYTES = 1024;
/** Brotli 11 saves another 8 % but costs ~15x the time, and this runs while the gateway starts. */
export const BROTLI_QUALITY = 5;

/** Brotli's options for `size` bytes of text at `quality`: one place for the build's files and the server pages. */
export function brotliOptions(quality: number, size: number): BrotliOptions {
  return { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: size } };
}

/** A compressed copy at least as new as its source; a rebuild into an unemptied folder (index.html keeps its name) renews it. */
function isFresh(copy: string, source: string): boolean {
  const copyStat = statSync(copy, { throwIfNoEntry: false });
  return copyStat !== undefined && copyStat.mtimeMs >= statSync(source).mtimeMs;
}

/**
 * Writes `file.br` and `file.gz` next to every compressible file of the build, once (README "Benchmark":
 * the app's JS went over the wire uncompressed, three times its gzip size, which is most of
 * Lighthouse's first-paint time on a mobile link). @fastify/static then sends the smallest copy the
 * browser accepts (`preCompressed`). Copies are written under a temporary name and renamed, so two
 * gateways starting on one build never serve a half-written file; a build folder that cannot be
 * written is served uncompressed, as before.
 */
export async function precompressBuild(root: string): Promise<void> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  // The app's server build is read by this process, never sent (ADR 0024).
  const serverBuild = join(root, SERVER_BUILD_FOLDER);
  const files = entries
    .filter((entry) => entry.isFile() && COMPRESSIBLE.has(extname(entry.name)) && entry.parentPath !== serverBuild)
    .map((entry) => join(entry.parentPath, entry.name));
  for (const file of files) {
    const variants = [
      {
        path: `${file}.br`,
        encode: (body: Buffer) => brotli(body, brotliOptions(BROTLI_QUALITY, body.length)),
      },
      { path: `${file}.gz`, encode: (body: Buffer) => gzipAsync(body, { level: 9 }) },
    ].filter((variant) => !isFresh(variant.path, file));
    if (variants.length === 0) continue;
    const body = await readFile(file);
    if (body.length < MIN_BYTES) {
      // A file that shrank below the threshold must not keep an old copy.
      await Promise.all(variants.map((variant) => rm(variant.path, { force: true })));
      continue;
    }
    for (const variant of variants) {
      const temporary = `${variant.path}.${randomUUID()}.tmp`;
      try {
        await writeFile(temporary, await variant.encode(body));
        await rename(temporary, variant.path);
      } catch {
        await rm(temporary, { force: true });
        return;
      }
    }
  }
}
