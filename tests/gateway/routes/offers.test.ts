import type { FastifyInstance } from 'fastify';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../../../gateway/site-files/load-fixtures';
import { buildTestGateway } from '../support/test-gateway';

const categories = JSON.parse(await readFile(`${FIXTURES_DIR}/offers/categories.json`, 'utf8')) as Record<string, unknown>;

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestGateway();
});
afterAll(() => app.close());

// SPEC §7: page-root paths, chosen by language code (full locale for Chinese).
describe('GET /offers/api/categories?locale=', () => {
  it.each([
    ['pt_br', 'pt'],
    ['es_co', 'es'],
    ['en_us', 'en'],
    ['zh_hk', 'zh_hk'],
    ['zh_cn', 'zh_cn'],
  ])('answers the categories of %s from "%s"', async (locale, key) => {
    const response = await app.inject({ method: 'GET', url: `/offers/api/categories?locale=${locale}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(categories[key]);
  });

  it.each(['sv_se', 'zh_tw'])('falls back to English for %s, which has no categories', async (locale) => {
    const response = await app.inject({ method: 'GET', url: `/offers/api/categories?locale=${locale}` });
    expect(response.json()).toEqual(categories.en);
  });

  it('defaults to en_us without a locale', async () => {
    expect((await app.inject({ method: 'GET', url: '/offers/api/categories' })).json()).toEqual(categories.en);
  });

  it('answers 400 naming locale for a malformed one', async () => {
    const response = await app.inject({ method: 'GET', url: '/offers/api/categories?locale=%3Cscript%3E' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { locale: 'invalid' } });
  });

  it('is not mounted under the gateway bases', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/offers/api/categories' })).statusCode).toBe(404);
  });
});

describe('GET /offersdata/customized-categories.json', () => {
  it('answers the file verbatim', async () => {
    const response = await app.inject({ method: 'GET', url: '/offersdata/customized-categories.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toBe(await readFile(`${FIXTURES_DIR}/offers/customized-categories.json`, 'utf8'));
  });
});
