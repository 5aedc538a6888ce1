import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompress, brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  SERVER_BUILD_FOLDER,
  SERVER_PAGE_DATA_ID,
  SERVER_RENDER_FILE,
  SITE_BRAND_ATTRIBUTE,
  type DocumentHead,
  type GatewayCallAnswer,
  type GatewayCallRequest,
  type RenderPage,
} from '../../schemas/pages/server-page';
import { escapeHtml, scriptJson } from './html-text';
import { BROTLI_QUALITY, brotliOptions } from './precompress-build';
import { allowInlineStyles } from './security-headers';
import { AUTHENTICATED_COOKIE, isHttps, LOGIN_CHALLENGE_COOKIE, SESSION_COOKIE, SUPPORT_DETAILS_COOKIE, USER_TYPE_COOKIE } from '../auth/session-cookies';

/**
 * First screens as HTML (docs/decisions/0024-first-paint-from-the-server.md): the app's server build renders
 * the page, reaching this gateway's API in-process with the visitor's cookies; the page carries the markup
 * and the data the browser's store starts from. A guest page is the same for every guest of a site, so its
 * HTML is kept per host and path; a page with a session in it is never kept.
 */
export interface ServerPages {
  /** Answers the page request, or returns false when the browser is to render it from the plain index.html. */
  send(request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
}

/** Cookies of a session or a sign-in under way (ADR 0008): a page for a request carrying one is that visitor's alone. */
const SESSION_COOKIES: ReadonlySet<string> = new Set([SESSION_COOKIE, AUTHENTICATED_COOKIE, USER_TYPE_COOKIE, SUPPORT_DETAILS_COOKIE, LOGIN_CHALLENGE_COOKIE]);
const ROOT_ELEMENT = '<div id="root"></div>';
/** Enough for every site × locale × route of a large estate; the oldest goes first beyond it. */
const CACHE_ENTRIES = 2_000;
/** Content and configuration are read at start-up; a minute bounds how long a changed text could wait. */
const CACHE_TTL_MS = 60_000;
/** A path longer than this is not worth keeping (and would let anyone fill the cache with junk keys). */
const CACHE_KEY_MAX = 512;

function carriesSession(cookieHeader: string): boolean {
  return cookieHeader.split(';').some((pair) => SESSION_COOKIES.has(pair.split('=', 1)[0]?.trim() ?? ''));
}

/**
 * The build's module script and the preloads of its own imports. On a page that already shows its screen they run
 * after the paint and never hold it, so they are asked for at low priority, and the link goes first to what paints
 * (ADR 0024). At their default high priority the browser, and Lighthouse's model of it, count them as holding the
 * first paint. The rest of the app's modules are preloaded by the entry itself, after the paint.
 */
const MODULE_SCRIPT_OR_PRELOAD = /<(script type="module"|link rel="modulepreload") /g;

/** The build's stylesheet links, in the HTML Vite writes. */
const BUILD_STYLESHEET = /<link rel="stylesheet"[^>]*? href="(\/assets\/[^"]+\.css)"[^>]*>/g;

/** A stylesheet written into the page itself, and the CSP source that lets exactly that text in. */
interface InlineStyle {
  css: string;
  source: string;
}

/**
 * The page's stylesheets go in the HTML (ADR 0024): a linked one holds the first paint for one more round trip.
 * Null for a text that could end its element early.
 */
function inlineStyle(css: string): InlineStyle | null {
  if (/<\/style/i.test(css)) return null;
  return { css, source: `'sha256-${createHash('sha256').update(css).digest('base64')}'` };
}

/** The HTML every server page starts from: index.html with the build's stylesheets written in. */
interface PageTemplate {
  html: string;
  styles: readonly InlineStyle[];
}

function pageTemplate(root: string, indexHtml: string): PageTemplate {
  const styles: InlineStyle[] = [];
  const html = indexHtml
    .replace(MODULE_SCRIPT_OR_PRELOAD, (_tag, opening: string) => `<${opening} fetchpriority="low" `)
    .replace(BUILD_STYLESHEET, (link, href: string) => {
      const file = join(root, href);
      const style = existsSync(file) ? inlineStyle(readFileSync(file, 'utf8')) : null;
      if (style === null) return link;
      styles.push(style);
      return `<style>${style.css}</style>`;
    });
  return { html, styles };
}

function brandStyleElement(href: string, style: InlineStyle | null): string {
  return style === null
    ? `<link rel="stylesheet" href="${escapeHtml(href)}" ${SITE_BRAND_ATTRIBUTE}>`
    : `<style ${SITE_BRAND_ATTRIBUTE}="${escapeHtml(href)}">${style.css}</style>`;
}

function pageHtml(template: string, html: string, data: unknown, head: DocumentHead, brand: InlineStyle | null): string {
  return (
    template
      // Function replacers throughout: a `$&` or `$'` in a title or a site's text is text, never a replacement pattern.
      .replace(/<html[^>]*>/, () => `<html lang="${escapeHtml(head.lang)}" dir="${escapeHtml(head.dir)}">`)
      .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(head.title)}</title>`)
      .replace('</head>', () => (head.stylesheet === null ? '</head>' : `${brandStyleElement(head.stylesheet, brand)}</head>`))
      .replace('<body>', () => `<body data-theme="${escapeHtml(head.theme)}" data-site-id="${escapeHtml(head.siteId)}">`)
      .replace(ROOT_ELEMENT, () => `<div id="root">${html}</div><script type="application/json" id="${SERVER_PAGE_DATA_ID}">${scriptJson(data)}</script>`)
  );
}

function flatHeaders(headers: Record<string, string | string[] | number | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return flat;
}

/** The app's call to this gateway, as the visitor's browser would make it (same cookies, same address), without a network. */
function inProcessCall(app: FastifyInstance, request: FastifyRequest) {
  return async (call: GatewayCallRequest): Promise<GatewayCallAnswer> => {
    const answer = await app.inject({
      method: call.method as 'GET',
      url: call.url,
      // The page's correlation id (X-CID): its API calls log under the page request's id.
      headers: { ...call.headers, host: request.host, 'x-cid': request.id },
      remoteAddress: request.ip,
      ...(call.body !== undefined ? { payload: call.body } : {}),
    });
    return { status: answer.statusCode, headers: flatHeaders(answer.headers), body: answer.body };
  };
}

/**
 * A page as sent: compressed for a browser that accepts it (the build's files are, precompress-build.ts), since the
 * HTML with its data is ~30 KB and most of a first paint on a slow link is bytes (ADR 0024).
 */
interface SentPage {
  html: string;
  /** The CSP sources of its inline stylesheets. */
  styleSources: readonly string[];
  encoded: Partial<Record<'br' | 'gzip', Buffer>>;
}

/**
 * Brotli at its best quality for the pages kept for guests: about a tenth fewer bytes than quality 5, which brings a
 * sign-in page with its headers under TCP's first window (ten segments, 14.6 KB), so on a slow link it arrives in one
 * round trip instead of two (ADR 0024). It costs about as much CPU as a render, so it is made off the event loop, and
 * kept by the page's text: a page rendered again after its minute in the cache is, as a rule, the same text, and
 * takes its body at once. Until a body is there, quality 5 is sent. Personal pages never come here.
 */
class BestBrotliBodies {
  private readonly bodies = new Map<string, Buffer>();

  give(page: SentPage): void {
    const key = createHash('sha256').update(page.html).digest('base64');
    const made = this.bodies.get(key);
    if (made !== undefined) {
      this.bodies.delete(key);
      this.bodies.set(key, made);
      page.encoded.br = made;
      return;
    }
    brotliCompress(page.html, brotliOptions(constants.BROTLI_MAX_QUALITY, page.html.length), (error, best) => {
      if (error !== null) return;
      page.encoded.br = best;
      this.bodies.set(key, best);
      if (this.bodies.size > CACHE_ENTRIES) this.bodies.delete(this.bodies.keys().next().value as string);
    });
  }
}

function encodingFor(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = (acceptEncoding ?? '').toLowerCase();
  if (/\bbr\b/.test(accepted)) return 'br';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return null;
}

function encodedBody(page: SentPage, encoding: 'br' | 'gzip'): Buffer {
  const kept = page.encoded[encoding];
  if (kept !== undefined) return kept;
  const body = encoding === 'br' ? brotliCompressSync(page.html, brotliOptions(BROTLI_QUALITY, page.html.length)) : gzipSync(page.html);
  page.encoded[encoding] = body;
  return body;
}

async function sendPage(request: FastifyRequest, reply: FastifyReply, page: SentPage, cacheControl: string): Promise<void> {
  const encoding = encodingFor(request.headers['accept-encoding']);
  allowInlineStyles(reply, page.styleSources);
  reply.code(200).type('text/html; charset=utf-8').header('cache-control', cacheControl).header('vary', 'accept-encoding');
  if (encoding === null) await reply.send(page.html);
  else await reply.header('content-encoding', encoding).send(encodedBody(page, encoding));
}

class PageCache {
  private readonly entries = new Map<string, { page: SentPage; expires: number }>();

  get(key: string, now: number): SentPage | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    if (entry.expires <= now) return undefined;
    this.entries.set(key, entry);
    return entry.page;
  }

  set(key: string, page: SentPage, now: number): void {
    this.entries.delete(key);
    this.entries.set(key, { page, expires: now + CACHE_TTL_MS });
    if (this.entries.size > CACHE_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
  }
}

/**
 * The server pages of the build in `root`, or null when the build has no server part (a build made before
 * it existed): then every page is rendered by the browser, as the log says once.
 */
export async function loadServerPages(app: FastifyInstance, root: string): Promise<ServerPages | null> {
  const renderFile = join(root, SERVER_BUILD_FOLDER, SERVER_RENDER_FILE);
  const indexHtml = readFileSync(join(root, 'index.html'), 'utf8');
  if (!existsSync(renderFile) || !indexHtml.includes(ROOT_ELEMENT)) {
    app.log.warn({ renderFile }, 'the app build has no server part: pages are rendered by the browser');
    return null;
  }
  const { renderPage } = (await import(pathToFileURL(renderFile).href)) as { renderPage: RenderPage };
  const cache = new PageCache();
  const bestBrotli = new BestBrotliBodies();
  const template = pageTemplate(root, indexHtml);
  // A site's brand stylesheet is made once from the fixtures read at start (ADR 0020): asked of the gateway's own
  // route once per site, then kept. Only known sites have one, so the map stays as small as the estate.
  const brandStyles = new Map<string, Promise<InlineStyle | null>>();
  const brandStyleOf = (href: string): Promise<InlineStyle | null> => {
    let style = brandStyles.get(href);
    if (style === undefined) {
      style = app.inject({ method: 'GET', url: href }).then(
        (answer) => (answer.statusCode === 200 ? inlineStyle(answer.body) : null),
        () => null,
      );
      brandStyles.set(href, style);
    }
    return style;
  };

  return {
    async send(request, reply) {
      if (request.method !== 'GET') return false;
      const cookie = request.headers.cookie ?? '';
      // The scheme the visitor used, also behind a TLS proxy (production is HTTPS, as its cookies): the app picks its SSO
      // return address by the page's origin.
      const url = `${isHttps(request) ? 'https' : 'http'}://${request.host}${request.url}`;
      const withSession = carriesSession(cookie);
      const cacheKey = !withSession && url.length <= CACHE_KEY_MAX ? url : null;
      const now = Date.now();
      const kept = cacheKey === null ? undefined : cache.get(cacheKey, now);
      if (kept !== undefined) {
        await sendPage(request, reply, kept, 'no-cache');
        return true;
      }
      const answer = await renderPage({ url, cookie, userAgent: request.headers['user-agent'] ?? '', gateway: inProcessCall(app, request) });
      if (answer.kind === 'redirect') {
        await reply.redirect(answer.location, answer.status);
        return true;
      }
      if (answer.kind === 'client-rendered') {
        // A route the server leaves to the browser is normal; a render that failed or ran out of time is worth a look.
        const failed = answer.reason.startsWith('render failed') || answer.reason === 'deadline';
        request.log[failed ? 'warn' : 'debug']({ reason: answer.reason }, 'page left to the browser');
        return false;
      }
      const brand = answer.head.stylesheet === null ? null : await brandStyleOf(answer.head.stylesheet);
      const page: SentPage = {
        html: pageHtml(template.html, answer.html, answer.data, answer.head, brand),
        styleSources: [...template.styles, ...(brand === null ? [] : [brand])].map((style) => style.source),
        encoded: {},
      };
      const personal = answer.personal || withSession;
      if (!personal && cacheKey !== null) {
        cache.set(cacheKey, page, now);
        bestBrotli.give(page);
      }
      // A page with a session in it is for this visitor only: no shared cache, no back-button copy after sign-out.
      await sendPage(request, reply, page, personal ? 'private, no-store' : 'no-cache');
      return true;
    },
  };
}
