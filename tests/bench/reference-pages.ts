/**
 * The browser figures' references (README "Benchmark"), served in the bench's own process on a free port:
 * - `/login` and `/registration`: the largest site's sign-in and registration JSON Schemas
 *   (schemas/forms/build-form-schema, as the portal builds them) drawn by a plain @rjsf/core Form with
 *   @rjsf/validator-ajv8 (rjsf-form-page.tsx), built by the same Vite (bench-pages.ts, `stock`);
 * - `/static`: a sign-in form as one static HTML page with no script, the page that has nothing to load.
 * Assets are served compressed and cached as the gateway serves the app's (gateway/http/precompress-build.ts,
 * static-app.ts), so the comparison is about the pages and not about the servers.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { buildFormSchema } from '../../schemas/forms/build-form-schema';
import type { SiteConfig } from '../../schemas/site-config/types';
import { buildBenchPage } from './bench-pages';
import { scriptJson } from '../../gateway/http/html-text';

const STATIC_SIGN_IN_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="Sign in to your rewards account"><title>Sign in</title><link rel="icon" href="data:,"></head><body><main><h1>Sign in</h1>
<p>Use the e-mail address and password of your rewards account.</p><form method="post"><label for="u">E-mail</label><input id="u" name="u" type="email" autocomplete="username">
<label for="p">Password</label><input id="p" name="p" type="password" autocomplete="current-password"><button type="submit">Sign in</button></form></main></body></html>`;

const PAGE = 'rjsf-form-page.html';
const ROOT_ELEMENT = '<main id="root"></main>';
/** The uiSchema keys stock RJSF reads, and the widgets of ours it ships under the same names. */
const STOCK_UI_KEYS: ReadonlySet<string> = new Set(['ui:order', 'ui:autocomplete', 'ui:readonly', 'ui:widget']);
const STOCK_WIDGETS: ReadonlySet<string> = new Set(['checkbox', 'email', 'hidden', 'password', 'select']);

/** The translator's uiSchema without what only our registry knows (custom fields, widgets, content keys). */
function stockUiSchema(node: unknown): unknown {
  if (Array.isArray(node) || node === null || typeof node !== 'object') return node;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!key.startsWith('ui:')) kept[key] = stockUiSchema(value);
    else if (STOCK_UI_KEYS.has(key) && (key !== 'ui:widget' || STOCK_WIDGETS.has(String(value)))) kept[key] = value;
  }
  return kept;
}

interface Asset {
  type: string;
  body: Buffer;
  br: Buffer;
  gzip: Buffer;
  cache: string;
}

function asset(type: string, body: Buffer, cache: string): Asset {
  return {
    type,
    body,
    br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
    gzip: gzipSync(body, { level: 9 }),
    cache,
  };
}

function send(request: IncomingMessage, response: ServerResponse, found: Asset): void {
  const accepted = request.headers['accept-encoding'] ?? '';
  const [encoding, body] = /\bbr\b/.test(accepted) ? ['br', found.br] : /\bgzip\b/.test(accepted) ? ['gzip', found.gzip] : [null, found.body];
  response.writeHead(200, {
    'content-type': found.type,
    'cache-control': found.cache,
    'content-length': String(body.length),
    vary: 'accept-encoding',
    ...(encoding ? { 'content-encoding': encoding } : {}),
  });
  response.end(body);
}

export interface ReferencePages {
  /** Origin of the server: `${baseUrl}/login`, `${baseUrl}/registration`, `${baseUrl}/static`. */
  baseUrl: string;
  stop(): Promise<void>;
}

export async function startReferencePages(site: SiteConfig, locale: string): Promise<ReferencePages> {
  const outDir = await buildBenchPage(PAGE, 'stock');
  try {
    const html = readFileSync(join(outDir, 'tests/bench', PAGE), 'utf8');
    if (!html.includes(ROOT_ELEMENT)) throw new Error(`the built ${PAGE} has no ${ROOT_ELEMENT} to put the form after`);
    const routes = new Map<string, Asset>();
    for (const form of ['login', 'registration'] as const) {
      const { schema, uiSchema } = buildFormSchema(site, locale, form);
      // `<` escaped, so no schema text can close the data element.
      const data = scriptJson({ schema, uiSchema: stockUiSchema(uiSchema) });
      const page = html.replace(ROOT_ELEMENT, `${ROOT_ELEMENT}<script type="application/json" id="bench-form">${data}</script>`);
      routes.set(`/${form}`, asset('text/html; charset=utf-8', Buffer.from(page), 'no-cache'));
    }
    routes.set('/static', asset('text/html; charset=utf-8', Buffer.from(STATIC_SIGN_IN_PAGE), 'no-cache'));
    for (const file of readdirSync(join(outDir, 'assets'))) {
      const type = file.endsWith('.css') ? 'text/css' : 'text/javascript';
      routes.set(`/assets/${file}`, asset(type, readFileSync(join(outDir, 'assets', file)), 'public, max-age=31536000, immutable'));
    }
    const server = createServer((request, response) => {
      const found = routes.get(new URL(request.url ?? '/', 'http://bench').pathname);
      if (found) send(request, response, found);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      baseUrl: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
      stop: async () => {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
