import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestGateway, gatewayOnBuild } from '../support/test-gateway';

/**
 * README "Benchmark" (Lighthouse): the build's text files go over the wire compressed, brotli when the
 * browser takes it, gzip otherwise, the original when it takes neither; caches are told the answer varies.
 */
const SCRIPT = `console.info(${JSON.stringify('rewards portal '.repeat(200))});`;
const INDEX_HTML = `<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body>${'<!-- app -->'.repeat(100)}</body></html>`;

describe('a built app served compressed', () => {
  let distDir: string;
  let app: FastifyInstance;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ app, distDir, close } = await gatewayOnBuild({
      'index.html': INDEX_HTML,
      'assets/index-abc123.js': SCRIPT,
      'assets/tiny-def456.js': 'export {};',
    }));
  });
  afterAll(() => close());

  it('sends a hashed script as brotli to a browser that accepts it, still cached for a year', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(response.headers.vary).toContain('accept-encoding');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.rawPayload.length).toBeLessThan(SCRIPT.length / 5);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends gzip when brotli is not accepted, and the original when nothing is', async () => {
    const gzipped = await app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(SCRIPT);

    const plain = await app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('sends index.html for an app route compressed, never cached', async () => {
    const response = await app.inject({ method: 'GET', url: '/firstbank/en_us/account/login', headers: { 'accept-encoding': 'br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(INDEX_HTML);
  });

  it('renews the copies of a file rebuilt under the same name (index.html)', async () => {
    const rebuilt = INDEX_HTML.replace('index-abc123.js', 'index-ghi789.js');
    // A later modification time than the copies written when the first gateway started.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeFile(join(distDir, 'index.html'), rebuilt);
    const restarted = await buildTestGateway({ distDir });
    try {
      const response = await restarted.inject({ method: 'GET', url: '/firstbank/en_us/account/login', headers: { 'accept-encoding': 'br' } });
      expect(brotliDecompressSync(response.rawPayload).toString()).toBe(rebuilt);
    } finally {
      await restarted.close();
      await writeFile(join(distDir, 'index.html'), INDEX_HTML);
    }
  });

  it('leaves files too small to gain from compression as they are', async () => {
    expect(existsSync(join(distDir, 'assets', 'tiny-def456.js.br'))).toBe(false);
    const response = await app.inject({ method: 'GET', url: '/assets/tiny-def456.js', headers: { 'accept-encoding': 'br' } });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe('export {};');
  });
});
