import { createHash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SERVER_BUILD_FOLDER, SERVER_PAGE_DATA_ID, SERVER_RENDER_FILE } from '../../../schemas/pages/server-page';
import { gatewayOnBuild } from '../support/test-gateway';

/**
 * The gateway's half of first screens from the server (docs/decisions/0024-first-paint-from-the-server.md), with a
 * server build written here: how the answer becomes a page, what is kept for the next guest and what never is.
 * The app's half (the real server build, hydration) is tests/e2e/server-pages.test.ts.
 */
const INDEX_HTML =
  '<!doctype html><html lang="en"><head><title>Rewards Portal</title><script type="module" src="/assets/index-abc123.js"></script><link rel="modulepreload" crossorigin href="/assets/runtime-abc123.js"><link rel="stylesheet" crossorigin href="/assets/style-abc123.css"></head><body><div id="root"></div></body></html>';
const BUILD_CSS = '.shell{color:#111}';

/**
 * A server build that answers from the path: `/x/en_us/account/login` a guest page, `profile` a personal one,
 * `registration` a redirect, `recovery` the browser's; every answer counts the renders and echoes what the
 * in-process call to the gateway's health route saw.
 */
const RENDER_PAGE_JS = `
let renders = 0;
export async function renderPage(request) {
  renders += 1;
  const url = new URL(request.url);
  const health = await request.gateway({ method: 'GET', url: '/api/health', headers: { cookie: request.cookie } });
  const route = url.pathname.split('/').pop();
  if (route === 'registration') return { kind: 'redirect', status: 302, location: '/x/en_us/account/login-form' };
  if (route === 'recovery') return { kind: 'client-rendered', reason: 'route' };
  const brands = { login: '/api/site-theme/x.css', 'login-form': '/api/site-theme/firstbank.css' };
  const head = { lang: 'en-US', dir: 'ltr', title: url.searchParams.get('title') ?? 'Sign in "now" <b>', theme: 'classic', siteId: 'x', stylesheet: brands[route] ?? null };
  // ?same: the same text whatever the address, as two renders of one guest page are.
  if (url.searchParams.has('same')) return { kind: 'page', html: '<main>' + route + '</main>', data: { route }, head, personal: false };
  return {
    kind: 'page',
    html: '<main data-renders="' + renders + '">' + route + '</main>',
    data: { renders, route, cookie: request.cookie, healthStatus: health.status, hostile: '</script><script>alert(1)</script>' },
    head,
    personal: route === 'profile',
  };
}`;

/** The page's data block (the id is a plain word: nothing in it to escape in the pattern). */
const PAGE_DATA_BLOCK = new RegExp(`<script type="application/json" id="${SERVER_PAGE_DATA_ID}">(.*?)</script>`, 's');

function pageData(body: string): Record<string, unknown> {
  const match = PAGE_DATA_BLOCK.exec(body);
  if (!match?.[1]) throw new Error(`no page data block in ${body}`);
  return JSON.parse(match[1]) as Record<string, unknown>;
}

describe('pages rendered by the app server build', () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ app, close } = await gatewayOnBuild({
      'index.html': INDEX_HTML,
      'assets/style-abc123.css': BUILD_CSS,
      [`${SERVER_BUILD_FOLDER}/${SERVER_RENDER_FILE}`]: RENDER_PAGE_JS,
    }));
  });
  afterAll(() => close());

  it("sends the first screen in #root, its data as a JSON block, and the head's language, title, theme and brand stylesheet", async () => {
    const response = await app.inject({ method: 'GET', url: '/x/en_us/account/login?first=1' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('<html lang="en-US" dir="ltr">');
    expect(response.body).toContain('<title>Sign in &#34;now&#34; &#60;b&#62;</title>');
    expect(response.body).toContain('<body data-theme="classic" data-site-id="x">');
    expect(response.body).toContain('<link rel="stylesheet" href="/api/site-theme/x.css" data-site-brand></head>');
    expect(response.body).toMatch(/<div id="root"><main data-renders="\d+">login<\/main><\/div>/);
    // The app's module script and its imports' preloads are still the build's, asked for at low priority (they run
    // after the paint, so they never hold it), and nothing in the data can end the block or start a script.
    expect(response.body).toContain('<script type="module" fetchpriority="low" src="/assets/index-abc123.js"></script>');
    expect(response.body).toContain('<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/runtime-abc123.js">');
    expect(response.body).not.toContain('<script>alert(1)');
    expect(pageData(response.body)).toMatchObject({ route: 'login', hostile: '</script><script>alert(1)</script>', healthStatus: 200 });
  });

  it("writes a title's `$&`, `$'` and `$$` as text (never as replacement patterns that copy the page into it)", async () => {
    const title = "Cash $$ back $& and $' too";
    const response = await app.inject({ method: 'GET', url: `/x/en_us/account/login?title=${encodeURIComponent(title)}` });
    expect(response.body).toContain(`<title>Cash $$ back $&#38; and $&#39; too</title>`);
    expect(response.body.match(/<title>/g)).toHaveLength(1);
  });

  it("writes the build's stylesheet and the site's brand colours into the page, each let in by the hash of its text alone", async () => {
    const response = await app.inject({ method: 'GET', url: '/x/en_us/account/login-form' });
    const brandCss = (await app.inject({ method: 'GET', url: '/api/site-theme/firstbank.css' })).body;
    expect(brandCss).toContain('--');
    expect(response.body).toContain(`<style>${BUILD_CSS}</style>`);
    expect(response.body).toContain(`<style data-site-brand="/api/site-theme/firstbank.css">${brandCss}</style></head>`);
    expect(response.body).not.toContain('<link rel="stylesheet"');
    const styleSrc = response.headers['content-security-policy']
      ?.toString()
      .split('; ')
      .find((directive) => directive.startsWith('style-src '));
    const hash = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
    expect(styleSrc).toBe(`style-src 'self' ${hash(BUILD_CSS)} ${hash(brandCss)}`);
    // Every other answer keeps the strict policy: no inline style at all.
    const api = await app.inject({ method: 'GET', url: '/api/health' });
    expect(api.headers['content-security-policy']).toContain("style-src 'self';");
  });

  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)('sends the page %s-compressed to a browser that accepts it, the same page once decompressed', async (encoding, decompress) => {
    const plain = await app.inject({ method: 'GET', url: '/x/en_us/account/login?compressed=1' });
    const compressed = await app.inject({ method: 'GET', url: '/x/en_us/account/login?compressed=1', headers: { 'accept-encoding': `${encoding}, deflate` } });
    expect(compressed.headers['content-encoding']).toBe(encoding);
    expect(compressed.headers.vary).toContain('accept-encoding');
    expect(compressed.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(decompress(compressed.rawPayload).toString('utf8')).toBe(plain.body);
  });

  it("sends a page kept for guests at Brotli's best quality once made (one round trip on a slow link), and a personal page never so", async () => {
    const brotli = (html: string, quality: number) =>
      brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: html.length } });
    const headers = { 'accept-encoding': 'br' };
    const guestUrl = '/x/en_us/account/login?best=1';
    const guestHtml = (await app.inject({ method: 'GET', url: guestUrl })).body;
    expect(brotli(guestHtml, constants.BROTLI_MAX_QUALITY).length).toBeLessThan(brotli(guestHtml, 5).length);
    await expect
      .poll(async () => (await app.inject({ method: 'GET', url: guestUrl, headers })).rawPayload)
      .toEqual(brotli(guestHtml, constants.BROTLI_MAX_QUALITY));

    // The same text rendered again (here under another address) is sent at the best quality from its first answer.
    const sameText = async (n: number) => (await app.inject({ method: 'GET', url: `/x/en_us/account/login?same=1&n=${n}`, headers })).rawPayload;
    const first = await sameText(1);
    await expect.poll(() => sameText(1)).not.toEqual(first);
    expect(await sameText(2)).toEqual(await sameText(1));

    // A page with a session in it is made for one answer and never kept, not even as its compressed bytes.
    const personal = { method: 'GET', url: '/x/en_us/account/profile?best=1', headers: { ...headers, cookie: 'SESSION=abc' } } as const;
    const personalFirst = await app.inject(personal);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const personalAgain = await app.inject(personal);
    for (const answer of [personalFirst, personalAgain]) {
      const html = brotliDecompressSync(answer.rawPayload).toString('utf8');
      expect(answer.rawPayload).toEqual(brotli(html, 5));
    }
  });

  it("calls the gateway's own API in-process with the visitor's cookies", async () => {
    const response = await app.inject({ method: 'GET', url: '/x/en_us/account/profile', headers: { cookie: 'SESSION=abc; XSRF-TOKEN=t' } });
    expect(pageData(response.body)).toMatchObject({ cookie: 'SESSION=abc; XSRF-TOKEN=t', healthStatus: 200 });
  });

  describe('what is kept for the next visitor', () => {
    let path: string;
    let counter = 0;
    beforeEach(() => {
      counter += 1;
      path = `/x/en_us/account/login?visit=${String(counter)}`;
    });

    it('a guest page is rendered once and sent to every guest of that host and path', async () => {
      const first = await app.inject({ method: 'GET', url: path });
      const second = await app.inject({ method: 'GET', url: path });
      expect(pageData(second.body).renders).toBe(pageData(first.body).renders);
      const otherHost = await app.inject({ method: 'GET', url: path, headers: { host: 'northbank.example' } });
      expect(pageData(otherHost.body).renders).not.toBe(pageData(first.body).renders);
    });

    it.each(['SESSION=abc', 'gmap_authenticated=true', 'gmap_user_type=CONCIERGE', 'gmap_support_details=x', 'LOGIN_CHALLENGE=c'])(
      'a request carrying %s is rendered for itself, never answered from or into the cache, and is no-store',
      async (cookie) => {
        const guest = await app.inject({ method: 'GET', url: path });
        const withSession = await app.inject({ method: 'GET', url: path, headers: { cookie } });
        expect(pageData(withSession.body).renders).not.toBe(pageData(guest.body).renders);
        expect(withSession.headers['cache-control']).toBe('private, no-store');
        const guestAgain = await app.inject({ method: 'GET', url: path });
        expect(pageData(guestAgain.body).renders).toBe(pageData(guest.body).renders);
      },
    );

    it('a personal page is never kept, even for a request without a session cookie, and is no-store', async () => {
      const first = await app.inject({ method: 'GET', url: '/x/en_us/account/profile' });
      const second = await app.inject({ method: 'GET', url: '/x/en_us/account/profile' });
      expect(first.headers['cache-control']).toBe('private, no-store');
      expect(pageData(second.body).renders).not.toBe(pageData(first.body).renders);
    });
  });

  it("follows the app's redirect, as its loader decided", async () => {
    const response = await app.inject({ method: 'GET', url: '/x/en_us/account/registration' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/x/en_us/account/login-form');
  });

  it('sends the plain index.html for a page the app leaves to the browser', async () => {
    const response = await app.inject({ method: 'GET', url: '/x/en_us/account/recovery' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(INDEX_HTML);
  });

  it('never serves the server build itself', async () => {
    const response = await app.inject({ method: 'GET', url: '/server/render-page.js' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('renderPage');
  });
});

describe('a build without a server part', () => {
  it('sends index.html for every app route, as before', async () => {
    const { app, close } = await gatewayOnBuild({ 'index.html': INDEX_HTML });
    try {
      const response = await app.inject({ method: 'GET', url: '/x/en_us/account/login' });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(INDEX_HTML);
    } finally {
      await close();
    }
  });
});
