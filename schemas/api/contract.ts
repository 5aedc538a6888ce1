/**
 * The shape of the gateway's route contract (`routes.ts`): pure data, read by the gateway (its request
 * schemas, its access declarations), by the OpenAPI document (`openapi.ts`) and by the test that holds
 * the contract and the registered routes equal (tests/gateway/http/api-contract.test.ts).
 */

/** SPEC §7/DESIGN "Contracts": `/api` in client-server mode, `/gateway/api` otherwise; the gateway serves both. */
export const API_BASES = ['/api', '/gateway/api'] as const;

/**
 * Who may call a route (docs/decisions/0017-threat-model.md "Declared access"):
 * - `public`: anyone, signed in or not (sign-in, registration, content, the app's files);
 * - `public-site-bound`: anyone; a caller who is signed in is held to the session's site like every non-public route
 *   (403 SITE_MISMATCH when the request names another), and the route reads that session (`assets/validation`);
 * - `signed-in`: a live session of a card holder or an agent (the user's own profile and attributes);
 * - `cardholder`: a card holder's session; an agent is refused (ADR 0014: credentials, MFA, cards, deletion);
 * - `agent`: a support agent's session on a site granted to them (ADR 0014's concierge calls);
 * - `operator`: the bearer of the operators' token (METRICS_TOKEN), never a session (README "Metrics"); not part of the API.
 */
export const ROUTE_ACCESS_KINDS = ['public', 'public-site-bound', 'signed-in', 'cardholder', 'agent', 'operator'] as const;
export type RouteAccess = (typeof ROUTE_ACCESS_KINDS)[number];

/**
 * When the gateway registers a route (gateway/server.ts, ADR 0018):
 * - `always`: in every mode;
 * - `development`: development mode only (the test identity provider, the API document; the outbox reader also needs SMTP_URL unset);
 * - `test-mode`: GATEWAY_TEST_MODE only (test hooks), never in production;
 * - `site-gallery`: SITE_GALLERY only;
 * - `app-built`: only when the Vite build is there to serve;
 * - `metrics-token`: only when METRICS_TOKEN is set (README "Metrics").
 */
export type RouteAvailability = 'always' | 'development' | 'test-mode' | 'site-gallery' | 'app-built' | 'metrics-token';

/** `api`: under each of `API_BASES`; `root`: at the page root (offers, promotions, the test identity provider, the app). */
export type RouteBase = 'api' | 'root';

/** A JSON Schema as plain data. */
export type JsonSchema = { readonly [keyword: string]: unknown };

export interface RouteRequest {
  params?: JsonSchema;
  querystring?: JsonSchema;
  /** Validated by Fastify for a JSON body. */
  body?: JsonSchema;
  /**
   * How the body is read when it is not JSON checked by `body`: a form (read and checked field by field by the route),
   * `none` (any body is read within the limit and dropped), or JSON the route checks itself (`route-checked`).
   */
  bodyReading?: 'form' | 'none' | 'route-checked';
}

export interface RouteResponse {
  status: number;
  description: string;
  /** application/json when unset. */
  mediaType?: string;
  /** Fastify serialises the answer of `status` with it (gateway/http/answer-schemas.ts), so it declares every member sent. */
  schema?: JsonSchema;
}

export interface RouteContract {
  method: 'GET' | 'POST';
  base: RouteBase;
  /** The URL as Fastify registers it, relative to the base (`:name` parameters, `*` wildcards). */
  url: string;
  access: RouteAccess;
  availability: RouteAvailability;
  summary: string;
  request?: RouteRequest;
  response: RouteResponse;
}

/** The card calls whose paths a site's `pan_capture` options give (SPEC §3 card config options, §7, ADR 0011). */
export type CardCall = 'validate' | 'enrol' | 'remove' | 'setDefault';

/** One card call at one path of the site files (Fastify syntax, relative to the API base, `:id` for the card). */
export interface CardCallPath {
  call: CardCall;
  path: string;
}
