import { AjvCompiler } from '@fastify/ajv-compiler';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { API_BASES } from '../schemas/api/contract';
import { accountJobHandlers } from './account/account-jobs';
import { createAuthServices, type AuthSetup } from './auth/auth-services';
import { resealTotpSecrets } from './auth/totp-enrolment';
import { KEY_RING_REFRESH_MS } from './security/key-ring';
import type { Database } from './db/database';
import { DatabaseUnavailableError, watchDatabaseOutages } from './db/database-outage';
import { cardsPlugin } from './features/cards/cards-plugin';
import { conciergePlugin } from './features/concierge/concierge-plugin';
import { contentConfigPageRootPlugin, contentConfigPlugin } from './features/content-config/content-config-plugin';
import { developmentPageRootPlugin, developmentPlugin } from './features/development/development-plugin';
import { answerInjectedFailures, InjectedFailures } from './features/development/test-support';
import { ssoPlugin } from './features/sso/sso-plugin';
import { userAttributePlugin } from './features/user-attribute/user-attribute-plugin';
import { userAuthPlugin } from './features/user-auth/user-auth-plugin';
import { userMgmtPlugin } from './features/user-mgmt/user-mgmt-plugin';
import type { Fixtures } from './site-files/load-fixtures';
import { guardAnswerSerialisation, serialiseAnswersWithContract } from './http/answer-schemas';
import { addCorrelationIdHeader, correlationIdFor } from './http/correlation-id';
import { drainOnClose } from './http/draining';
import { handleClientError, handleError, handleFrameworkError } from './http/errors';
import { declareAccessOfEveryRoute, enforceDeclaredAccess } from './http/route-access';
import { addSecurityHeaders, type ContentSecuritySources } from './http/security-headers';
import { registerStaticApp } from './http/static-app';
import { refuseUnstorableText } from './http/text-guard';
import { issueXsrfCookie, requireXsrfHeader } from './http/xsrf';
import { JobQueue } from './jobs/job-queue';
import { MemoryCounterStore } from './limits/memory-counter-store';
import { GatewayMetrics } from './metrics/gateway-metrics';
import { AdjustableClock } from './time/clock';
import { RequestLogController } from './logging/request-log';
import type { SsoCredentials } from './sso/client-credentials';
import type { TestIdpKeys } from './sso/test-idp-keys';
import type { SamlKeys } from './sso/service-provider';
import type { TestSamlIdpKey } from './sso/test-saml-idp';
import { fromContract } from './http/route-contract';

/** Request bodies above this answer 413 PAYLOAD_TOO_LARGE; no call of SPEC §7 comes near it. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface GatewayOptions {
  db: Database;
  fixtures: Fixtures;
  /** The Vite build to serve; app routes answer 503 APP_NOT_BUILT when it is missing. */
  distDir?: string;
  /** A logger from `createLogger`; none means silent (tests). */
  logger?: FastifyBaseLogger;
  /** True only under tests (GATEWAY_TEST_MODE): adds the test-support routes. */
  testMode?: boolean;
  /** Serve the site gallery's list of sites (SITE_GALLERY). */
  siteGallery?: boolean;
  /** Clock, counters, mail and keys of sign-in (ADR 0008); in-process stand-ins for what is left out. */
  auth?: AuthSetup;
  /** Fastify's trustProxy (TRUST_PROXY): lets per-IP limits see the client behind a load balancer. */
  trustProxy?: boolean | number | string[];
  /** Remote hosts the CSP lets in (hCaptcha, analytics tags; ADR 0013); none by default. */
  contentSecurity?: ContentSecuritySources;
  /** ADR 0018: production serves no outbox reader and no test identity provider, and sets every cookie Secure; development when unset. */
  mode?: 'development' | 'production';
  /** ADR 0015: confidential SSO clients' credentials (from the environment, `readSsoCredentials`); none when unset. */
  ssoCredentials?: SsoCredentials;
  /**
   * README "Metrics": the operators' bearer token (METRICS_TOKEN); `/metrics` exists only when it is set, so a
   * gateway without one publishes nothing to scrape.
   */
  metricsToken?: string;
  /** ADR 0015: the test identity provider's keys (a test picks RS256, PS256 or ES256, or rotates them); the derived ES256 key when unset. */
  testIdpKeys?: TestIdpKeys;
  /** docs/decisions/0028-sso-saml.md: SAML sites' own key pairs (signed requests, encrypted assertions); none when unset. */
  samlKeys?: SamlKeys;
  /** ADR 0028: the test SAML identity provider's key (a test signs Responses with it); generated when unset. */
  testSamlIdpKey?: TestSamlIdpKey;
}

declare module 'fastify' {
  interface FastifyInstance {
    readonly testMode: boolean;
    /** ADR 0012: account work done after the answer; tests wait for `whenIdle()` before reading mail. */
    readonly accountJobs: JobQueue;
  }
}

/**
 * Fastify's own request validator compiler (the same Ajv options), one pool for every gateway this process builds:
 * Ajv keeps what it compiled per schema, and the route schemas are the contract's constants. Each Fastify instance
 * made its own pool, so every gateway built compiled every request schema again (the gateway tests build one per
 * test), as the answer serialisers did (gateway/http/answer-schemas.ts).
 */
const REQUEST_VALIDATORS = AjvCompiler();

/** The whole gateway as a Fastify instance, not yet listening: `main.ts` listens, tests `inject()`. */
export async function buildGateway(options: GatewayOptions): Promise<FastifyInstance> {
  const { fixtures } = options;
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit: BODY_LIMIT_BYTES,
    // A hop count becomes a function: Fastify 5 reads a bare number as "trust nobody", which would count every
    // client as the load balancer. The list of addresses/CIDRs and `true` go to proxy-addr as they are.
    trustProxy: typeof options.trustProxy === 'number' ? trustHops(options.trustProxy) : (options.trustProxy ?? false),
    genReqId: correlationIdFor,
    // One log line per request, with its correlation id as `cid`.
    logController: new RequestLogController(),
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: handleClientError,
    // Every query parameter error at once, so a 400 names all of them.
    ajv: { customOptions: { allErrors: true } },
    schemaController: { compilersFactory: { buildValidator: REQUEST_VALIDATORS } },
    // README "Stopping": closing ends the idle keep-alive connections at once; a busy one ends with its answer
    // (`drainOnClose`). A request that reaches a busy connection while closing is served, not refused with
    // Fastify's own 503 body: its client had no way to know, and the answer closes the connection.
    forceCloseConnections: 'idle',
    return503OnClosing: false,
  });
  // README "Database outage": 503 SERVICE_UNAVAILABLE while it cannot be reached, logged once per outage.
  const db = watchDatabaseOutages(options.db, app.log);
  app.decorate('testMode', options.testMode === true);
  const development = options.mode !== 'production';
  app.decorate('secureCookies', !development);
  // ADR 0017: every route says who may call it, or the gateway does not start.
  declareAccessOfEveryRoute(app);
  // ADR 0023 "Answers": each route's answer is serialised with its contract schema (`fromContract`), and in test mode checked whole.
  serialiseAnswersWithContract(app);
  if (options.testMode) guardAnswerSerialisation(app);
  app.setErrorHandler(handleError);
  addCorrelationIdHeader(app);
  addSecurityHeaders(app, options.contentSecurity);
  issueXsrfCookie(app);
  const counters = options.auth?.counters ?? new MemoryCounterStore();
  const clock = options.auth?.clock ?? new AdjustableClock();
  // README "Metrics": every answer counted by route pattern and status, from the first hook on.
  const metrics = new GatewayMetrics({ db, counters, clock });
  metrics.countAnswers(app);
  const auth = createAuthServices({
    binRanges: fixtures.binRanges,
    mailContent: fixtures.content,
    ...options.auth,
    clock,
    counters,
    onLockStarted: (lock) => metrics.lockStarted(lock),
  });
  // ADR 0026 "Key rotation with a grace window": the rings as stored, then read again every KEY_RING_REFRESH_MS, so a
  // rotation reaches this instance before the new key signs; a stored key this instance's roots cannot open stops the start.
  // A database away at the start (README "Database outage", logged once by its guard) starts on the environment's keys:
  // every call answers 503 until it is back, and the next refresh reads the rings.
  await auth.keys.refresh(db).catch((error: unknown) => {
    if (!(error instanceof DatabaseUnavailableError)) throw error;
  });
  // Each refresh also seals again a batch of TOTP secrets an earlier key sealed, so none waits for its holder's next sign-in.
  const stopKeyRefresh = auth.keys.refreshEvery(db, app.log, KEY_RING_REFRESH_MS, async () => {
    await resealTotpSecrets(db, auth.totpBox, auth.keys.totp, clock.now());
  });
  app.addHook('onClose', async () => stopKeyRefresh());
  const injectedFailures = new InjectedFailures();
  if (options.testMode) answerInjectedFailures(app, injectedFailures, API_BASES);
  const ssoCredentials = options.ssoCredentials ?? new Map();
  const jobs = new JobQueue(db, accountJobHandlers(db, fixtures, auth), clock, app.log, metrics);
  app.decorate('accountJobs', jobs);
  // Jobs a crashed or busy instance left behind, and retries coming due.
  jobs.startPolling();
  // README "Stopping": no job is taken once closing begins; the one in hand finishes before the database closes.
  const drain = drainOnClose(app, () => void jobs.close());
  app.addHook('onClose', () => jobs.close());

  // SPEC §7/DESIGN "Contracts": `/api` in client-server mode (on in this build), `/gateway/api` otherwise.
  for (const prefix of API_BASES) {
    await app.register(
      async (api) => {
        requireXsrfHeader(api);
        // ADR 0005 "Characters": the API's text, never the app's pages, whose query the app itself checks (SPEC §5).
        refuseUnstorableText(api);
        // ADR 0017: each route's declared access, and the session's site, enforced in one place (after the XSRF check).
        enforceDeclaredAccess(api, { db, fixtures, clock });
        // One plugin per feature (ADR 0023 "Feature plugins"), each a child of this scope, so its routes inherit the hooks above.
        await api.register(contentConfigPlugin, { db, fixtures, siteGallery: options.siteGallery === true, counters: options.auth?.counters, drain });
        await api.register(userAttributePlugin, { db, fixtures, auth, jobs });
        await api.register(userAuthPlugin, { db, fixtures, auth, jobs });
        await api.register(ssoPlugin, {
          db,
          fixtures,
          auth,
          jobs,
          gateway: app,
          development,
          credentials: ssoCredentials,
          samlKeys: options.samlKeys ?? new Map(),
        });
        await api.register(userMgmtPlugin, { db, fixtures, clock, auth, jobs });
        await api.register(cardsPlugin, { db, fixtures, auth });
        await api.register(conciergePlugin, { db, fixtures, clock, jobs });
        // The outbox reader and the API docs in development only, the test hooks in test mode only (ADR 0018).
        await api.register(developmentPlugin, {
          db,
          fixtures,
          clock,
          development,
          testMode: options.testMode === true,
          devOutbox: auth.devOutbox,
          failures: injectedFailures,
        });
      },
      { prefix },
    );
  }
  // README "Metrics": the operators' scope at the page root, its access enforced by the same hook as the API's.
  const { metricsToken } = options;
  if (metricsToken !== undefined)
    await app.register(async (operators) => {
      enforceDeclaredAccess(operators, { db, fixtures, clock, operatorToken: metricsToken });
      operators.route({
        ...fromContract('GET /metrics'),
        handler: async (_request, reply) =>
          reply
            .header('cache-control', 'no-store')
            .type(metrics.registry.contentType)
            .send(await metrics.text()),
      });
    });
  // Page-root paths, outside the gateway bases: the offers files and promotions configuration, and in development the test identity provider.
  await app.register(contentConfigPageRootPlugin, { fixtures });
  await app.register(developmentPageRootPlugin, {
    db,
    fixtures,
    clock,
    development,
    credentials: ssoCredentials,
    tokenSigningKey: auth.keys.tokenRoot,
    testIdpKeys: options.testIdpKeys,
    testSamlIdpKey: options.testSamlIdpKey,
  });
  await registerStaticApp(app, options.distDir, { siteGallery: options.siteGallery });
  return app;
}

/**
 * proxy-addr walks from the socket peer (hop 0) leftwards through X-Forwarded-For and stops at the first
 * address it does not trust, which is the client. Trusting hops 0 to N-1 makes the client the N-th
 * address from the right (behind one proxy: the one that proxy appended), so whatever a client wrote
 * to the left of it is never read (ADR 0017). It trusts the socket peer by position, not by address:
 * only safe when the gateway is reachable through those proxies alone (README "Production").
 */
function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}
