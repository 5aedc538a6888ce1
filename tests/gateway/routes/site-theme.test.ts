import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASES, buildTestGateway } from '../support/test-gateway';

// GET site-theme/{siteId}.css (docs/decisions/0020-site-themes-and-brands.md): the brand colours of
// a site's fixture as CSS custom properties, public and cacheable; an unknown site is a 404 in JSON.
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestGateway();
});
afterAll(() => app.close());

describe.each(API_BASES)('GET %s/site-theme/{siteId}.css', (base) => {
  it("answers firstbank's brand colours as CSS, for anyone, cacheable", async () => {
    const response = await app.inject({ method: 'GET', url: `${base}/site-theme/firstbank.css` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=600');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.body).toContain('html:root {\n  --color-brand: #0b3d91;\n  --color-accent: #ffcd3c;\n}');
  });

  it('answers 304 to a browser that has this version (ETag)', async () => {
    const first = await app.inject({ method: 'GET', url: `${base}/site-theme/sabana.css` });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await app.inject({ method: 'GET', url: `${base}/site-theme/sabana.css`, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const other = await app.inject({ method: 'GET', url: `${base}/site-theme/dohabank.css`, headers: { 'if-none-match': etag } });
    expect(other.statusCode).toBe(200);
  });

  it('answers a site without a brand (northbank, the default site) with no declaration: the theme colours apply', async () => {
    for (const siteId of ['northbank', 'default']) {
      const response = await app.inject({ method: 'GET', url: `${base}/site-theme/${siteId}.css` });
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toContain('--color-');
    }
  });

  it.each([
    ['an unknown site', 'no-such-bank.css'],
    ['no .css', 'firstbank'],
    ['another extension', 'firstbank.js'],
    ['markup in the name', encodeURIComponent('<style>x</style>.css')],
    ['CSS in the name', encodeURIComponent('x;}body{display:none}.css')],
    ['a path', 'firstbank/extra.css'],
    ['a climb', '..%2Ffirstbank.css'],
    ['an over-long name', `${'x'.repeat(300)}.css`],
    ['an inherited property name', '__proto__.css'],
  ])('answers %s with 404 JSON that does not echo the name', async (_case, name) => {
    const response = await app.inject({ method: 'GET', url: `${base}/site-theme/${name}` });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = response.json<{ error: string; message: string }>();
    expect(body.error).toBe('SITE_NOT_FOUND');
    expect(body.message).toBe('There is no site stylesheet by this name: ask for site-theme/{siteId}.css of a known site.');
    expect(response.body).not.toContain('display');
    expect(response.body).not.toContain('<style>');
  });

  it('is a GET only: a POST is refused without a stylesheet', async () => {
    const response = await app.inject({ method: 'POST', url: `${base}/site-theme/firstbank.css` });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.body).not.toContain('--color-brand');
  });
});
