/**
 * The contract between the gateway and the app's server build (docs/decisions/0024-first-paint-from-the-server.md):
 * the gateway loads the built `render-page.js` (never the app's source) and calls its `renderPage`; the app
 * answers with the first screen's markup and the data the browser's store and router start from.
 */

/** The id of the page's `<script type="application/json">` block: data, never run, so the strict CSP allows it. */
export const SERVER_PAGE_DATA_ID = 'portal-page-data';

/**
 * Written in the app's entry where the build puts the list of the app's module files (its own imports aside): a server
 * page adds their preloads a few per task after its first paint (ADR 0024). Left as it is, it means no list.
 */
export const APP_MODULES_PLACEHOLDER = '__PORTAL_APP_MODULES__';

/** How many of those preloads one task starts: each costs the main thread about half a millisecond (two at 4x CPU). */
export const APP_MODULE_PRELOADS_PER_TASK = 4;

/** Where the server build sits inside the app's build folder; the gateway never serves this folder. */
export const SERVER_BUILD_FOLDER = 'server';
export const SERVER_RENDER_FILE = 'render-page.js';

/**
 * Marks the site brand's stylesheet (ADR 0020) in the head: the browser's link (the attribute empty) or the
 * server page's inline copy (the attribute holds the stylesheet's address, so the browser can take it over).
 */
export const SITE_BRAND_ATTRIBUTE = 'data-site-brand';

/** One call to the gateway's own API, made in-process for the page being rendered. */
export interface GatewayCallRequest {
  method: string;
  /** Path and query, e.g. `/api/site-config-service/config/site/firstbank`. */
  url: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
}

export interface GatewayCallAnswer {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: string;
}

export interface ServerPageRequest {
  /** The page's absolute URL as the visitor asked for it (scheme, host, path and query). */
  url: string;
  /** The request's Cookie header: the auth check reads the readable cookies, the API calls carry them all. */
  cookie: string;
  userAgent: string;
  gateway: (request: GatewayCallRequest) => Promise<GatewayCallAnswer>;
}

/** What the server sets on `<html>`, `<title>` and `<body>` before the app's effects would (SPEC §2 root screen). */
export interface DocumentHead {
  lang: string;
  dir: 'ltr' | 'rtl';
  title: string;
  theme: string;
  siteId: string;
  /** The site's brand stylesheet (ADR 0020), linked in the head so the first paint has the brand's colours. */
  stylesheet: string | null;
}

export type ServerPageAnswer =
  | { kind: 'redirect'; status: number; location: string }
  | {
      kind: 'page';
      /** The markup of `#root`. */
      html: string;
      /** JSON-serialisable: the store's and the router's starting state, written into the page as SERVER_PAGE_DATA_ID. */
      data: unknown;
      head: DocumentHead;
      /**
       * True when the render drew a signed-in visitor's screen. The gateway also counts every request that carries a
       * session cookie as personal: such a page is never cached, never shared.
       */
      personal: boolean;
    }
  /** The browser renders this one (a route the server does not render, or one it could not). */
  | { kind: 'client-rendered'; reason: string };

export type RenderPage = (request: ServerPageRequest) => Promise<ServerPageAnswer>;
