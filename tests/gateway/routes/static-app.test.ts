import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../../../gateway/server';
import { buildTestGateway, gatewayOnBuild, realFixtures, stubDatabase } from '../support/test-gateway';

const INDEX_HTML = '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body></body></html>';

describe('with a built app in distDir', () => {
  let distDir: string;
  let app: FastifyInstance;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ app, distDir, close } = await gatewayOnBuild({
      'index.html': INDEX_HTML,
      'assets/index-abc123.js': 'console.info("app");',
      'favicon.svg': '<svg/>',
    }));
  });
  afterAll(() => close());

  // SPEC §2: /{issuer}/{locale}/account/... and /{locale}/account/... are the app's routes.
  it.each([
    '/firstbank/en_us/account/login',
    '/en_us/account/profile',
    '/pt_br/account/',
    '/firstbank/en_us/account',
    '/vppcards/en_us/account/edit-pan?siteid=vppcards',
    // The app checks its own query (SPEC §5, §2 returnurl "stored only if valid"); a control character in it is no reason to withhold the page.
    '/firstbank/en_us/account/login?returnurl=%0Ajavascript:alert(1)//%00',
  ])('answers index.html, never cached, for the app route %s', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toBe(INDEX_HTML);
  });

  it('answers the app pages from declared routes (schemas/api/routes.ts "The app"), never from the not-found answer', () => {
    for (const url of ['/:locale/account', '/:locale/account/*', '/:issuer/:locale/account', '/:issuer/:locale/account/*']) {
      expect(app.hasRoute({ method: 'GET', url }), url).toBe(true);
    }
  });

  it('answers the site gallery pages with index.html only when SITE_GALLERY is on', async () => {
    expect((await app.inject({ method: 'GET', url: '/gallery/firstbank' })).statusCode).toBe(404);
    const withGallery = await buildGateway({ db: stubDatabase, fixtures: await realFixtures(), distDir, siteGallery: true });
    const response = await withGallery.inject({ method: 'GET', url: '/gallery/firstbank?form=login' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(INDEX_HTML);
    await withGallery.close();
  });

  it('serves hashed assets with a one-year immutable cache', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.body).toBe('console.info("app");');
  });

  it('serves other build files, revalidated', async () => {
    const response = await app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('redirects / to the English login page', async () => {
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/en_us/account/login');
  });

  it.each([
    '/assets/missing.js',
    '/elsewhere',
    '/api/account/login',
    '/api/en_us/account/login',
    '/gateway/api/account/login',
    '/../../etc/passwd',
    '/assets/..%2f..%2fetc%2fpasswd',
  ])('answers 404 JSON, not the app, for %s', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe('NOT_FOUND');
  });

  it('does not answer the app for a POST to an app route', async () => {
    const response = await app.inject({ method: 'POST', url: '/en_us/account/login', payload: {} });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe('NOT_FOUND');
  });
});

describe('without a build', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestGateway({ distDir: join(tmpdir(), 'gateway-dist-that-does-not-exist') });
  });
  afterAll(() => app.close());

  it('answers app routes with 503 APP_NOT_BUILT saying how to build', async () => {
    const response = await app.inject({ method: 'GET', url: '/firstbank/en_us/account/login' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error: 'APP_NOT_BUILT' });
    expect(response.json().message).toContain('npm run build');
  });

  it('still serves the API', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/site-config-service/config/site/firstbank' })).statusCode).toBe(200);
  });
});
