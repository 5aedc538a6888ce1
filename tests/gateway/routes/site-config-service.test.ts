import { readdir, readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../../../gateway/site-files/load-fixtures';
import { API_BASES, buildTestGateway } from '../support/test-gateway';

const CONFIG_PATH = 'site-config-service/config/site';
// Discovered by listing the folder (DESIGN "Contracts": adding a site = adding a file, no test to edit).
const siteFiles = (await readdir(`${FIXTURES_DIR}/sites`)).filter((name) => name.endsWith('.json')).sort();
const defaultSiteText = await readFile(`${FIXTURES_DIR}/default-site.json`, 'utf8');

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestGateway();
});
afterAll(() => app.close());

describe.each(API_BASES)('GET %s/site-config-service/config/site/{siteId} (SPEC §7)', (base) => {
  it('has sites to serve', () => {
    expect(siteFiles.length).toBeGreaterThan(0);
  });

  it.each(siteFiles)('answers %s byte for byte', async (file) => {
    const siteId = file.replace(/\.json$/, '');
    const response = await app.inject({ method: 'GET', url: `${base}/${CONFIG_PATH}/${siteId}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['x-site-config-fallback']).toBeUndefined();
    expect(response.rawPayload.equals(await readFile(`${FIXTURES_DIR}/sites/${file}`))).toBe(true);
  });

  it.each([
    ['an unknown site id', 'no-such-bank'],
    ['markup in the site id', encodeURIComponent('<script>alert(1)</script>')],
    ['a site id with a slash', 'firstbank/extra'],
    ['an over-long site id', 'x'.repeat(500)],
    ['an inherited property name', '__proto__'],
    ['no site id at all', ''],
  ])('falls back to the default site for %s ("failure falls back to default")', async (_case, siteId) => {
    const response = await app.inject({ method: 'GET', url: `${base}/${CONFIG_PATH}/${siteId}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-site-config-fallback']).toBe('default');
    expect(response.body).toBe(defaultSiteText);
    expect(response.body).not.toContain('<script>');
  });
});
