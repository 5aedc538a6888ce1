import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { API_BASES } from '../schemas/api/contract';
import { accountJobHandlers } from './account/account-jobs';
import { createAuthServices, type AuthSetup } from './auth/auth-services';
import type { Database } from './db/database';
import type { Fixtures } from './fixtures/load-fixtures';
import { addCorrelationIdHeader, correlationIdFor } from './http/correlation-id';
import { handleClientError, handleError, handleFrameworkError } from './http/errors';
import { addSecurityHeaders, type ContentSecuritySources } from './http/security-headers';
import { refuseUnstorableText } from './http/text-guard';
import { JobQueue } from './jobs/job-queue';
import { declareAccessOfEveryRoute, enforceDeclaredAccess } from './http/route-access';
import { issueXsrfCookie, requireXsrfHeader } from './http/xsrf';
import { apiDocsRoutes } from './routes/api-docs';
import { assetsRoutes } from './routes/assets';
import { assetsValidationRoutes } from './routes/assets-validation';
import { conciergeRoutes } from './routes/concierge';
import { conciergeAttributeRoutes } from './routes/concierge-attributes';
import { contentRoutes } from './routes/content';
import { devOutboxRoutes } from './routes/dev-outbox';
import { formRoutes } from './routes/forms';
import { hcaptchaVerificationRoutes } from './routes/hcaptcha-verification';
import { healthRoutes } from './routes/health';
import { offersRoutes } from './routes/offers';
import { promotionsConfigurationRoutes } from './routes/promotions-configuration';
import { siteConfigServiceRoutes } from './routes/site-config-service';
import { siteGalleryRoutes } from './routes/site-gallery';
import { siteThemeRoutes } from './routes/site-theme';
import { ssoRoutes } from './routes/sso';
import { ssoLogoutRoutes } from './routes/sso-logout';
import { registerStaticApp } from './http/static-app';
import { answerInjectedFailures, InjectedFailures, testSupportRoutes } from './routes/test-support';
import { testIdpRoutes } from './routes/test-idp';
import type { SsoCredentials } from './sso/client-credentials';
import { loadSsoIdentities } from './sso/sso-identities';
import { deriveSigningKey, TestIdpKeys } from './sso/test-idp-keys';
import { userAttributeBackgroundRoutes } from './routes/user-attribute-background';
import { userAttributeSaveRoutes } from './routes/user-attribute-save';
import { userAttributeReadRoutes } from './routes/user-attribute-read';
import { userAttributeSiteObjectRoutes } from './routes/user-attribute-site-object';
import { userMgmtUpdateRoutes } from './routes/user-mgmt-update';
import { myCashbackRoutes } from './routes/my-cashback';
import { userAuthOtpVerifyRoutes } from './routes/user-auth-otp-verify';
import { userAuthRevokeRoutes } from './routes/user-auth-revoke';
import { userAuthSessionTokenRoutes } from './routes/user-auth-session-tokens';
import { userAuthSignInRoutes } from './routes/user-auth-sign-in';
import { userMgmtAliasRoutes } from './routes/user-mgmt-alias';
import { userMgmtFindRoutes } from './routes/user-mgmt-find';
import { userMgmtPasscodeRoutes } from './routes/user-mgmt-passcodes';
import { userMgmtPasswordRoutes } from './routes/user-mgmt-passwords';
import { userMgmtRecoveryRoutes } from './routes/user-mgmt-recovery';
import { userMgmtRegistrationRoutes } from './routes/user-mgmt-registration';
import { userMgmtRemoveAccountRoutes } from './routes/user-mgmt-remove-account';
import { userMgmtTotpRoutes } from './routes/user-mgmt-totp';

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
  /** ADR 0015: the test identity provider's keys (a test picks RS256, PS256 or ES256, or rotates them); the derived ES256 key when unset. */
  testIdpKeys?: TestIdpKeys;
}

declare module 'fastify' {
  interface FastifyInstance {
    readonly testMode: boolean;
    /** ADR 0012: account work done after the answer; tests wait for `whenIdle()` before reading mail. */
    readonly accountJobs: JobQueue;
  }
}

/** The whole gateway as a Fastify instance, not yet listening: `main.ts` listens, tests `inject()`. */
export async function buildGateway(options: GatewayOptions): Promise<FastifyInstance> {
  const { db, fixtures } = options;
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit: BODY_LIMIT_BYTES,
    // A hop count trusts that many proxies nearest the gateway (proxy-addr's hop numbering).
    trustProxy: typeof options.trustProxy === 'number' ? trustHops(options.trustProxy) : (options.trustProxy ?? false),
    genReqId: correlationIdFor,
    logController: new LogController({ requestIdLogLabel: 'cid' }),
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: handleClientError,
    // Every query parameter error at once, so a 400 names all of them.
    ajv: { customOptions: { allErrors: true } },
  });
  app.decorate('testMode', options.testMode === true);
  const development = options.mode !== 'production';
  app.decorate('secureCookies', !development);
  // ADR 0017: every route says who may call it, or the gateway does not start.
  declareAccessOfEveryRoute(app);
  app.setErrorHandler(handleError);
  addCorrelationIdHeader(app);
  addSecurityHeaders(app, options.contentSecurity);
  issueXsrfCookie(app);
  const auth = createAuthServices({ binRanges: fixtures.binRanges, mailContent: fixtures.content, ...options.auth });
  const injectedFailures = new InjectedFailures();
  if (options.testMode) answerInjectedFailures(app, injectedFailures, API_BASES);
  const { clock } = auth;
  const ssoCredentials = options.ssoCredentials ?? new Map();
  const jobs = new JobQueue(db, accountJobHandlers(db, fixtures, auth), clock, app.log);
  app.decorate('accountJobs', jobs);
  // Jobs a crashed or busy instance left behind, and retries coming due.
  jobs.startPolling();
  app.addHook('onClose', () => jobs.close());

  // SPEC §7/DESIGN "Contracts": `/api` in client-server mode (on in this build), `/gateway/api` otherwise.
  for (const prefix of API_BASES) {
    await app.register(
      async (api) => {
        requireXsrfHeader(api);
        // ADR 0005 "Characters": the API's text, never the app's pages, whose query the app itself checks (SPEC §5).
        refuseUnstorableText(api);
        // ADR 0017: each route's declared access, and the session's site, enforced in one place (after the XSRF check).
        enforceDeclaredAccess(api, { db, clock });
        await api.register(healthRoutes, { db });
        await api.register(siteConfigServiceRoutes, { fixtures });
        await api.register(siteThemeRoutes, { fixtures });
        await api.register(contentRoutes, { fixtures });
        await api.register(formRoutes, { fixtures });
        if (options.siteGallery) await api.register(siteGalleryRoutes, { fixtures });
        await api.register(userAttributeBackgroundRoutes, { db, clock });
        await api.register(userAttributeSaveRoutes, { db, fixtures, clock });
        await api.register(userAttributeReadRoutes, { db, clock });
        await api.register(userAttributeSiteObjectRoutes, { db, fixtures, clock });
        await api.register(userMgmtUpdateRoutes, { db, fixtures, clock });
        await api.register(myCashbackRoutes, { db, clock });
        await api.register(userMgmtFindRoutes, { db, clock });
        await api.register(userAuthSignInRoutes, { db, fixtures, auth, jobs });
        await api.register(userAuthRevokeRoutes, { db, auth });
        await api.register(userAuthSessionTokenRoutes, { db, auth });
        await api.register(userAuthOtpVerifyRoutes, { db, auth });
        await api.register(ssoRoutes, { db, fixtures, auth, gateway: app, development, credentials: ssoCredentials });
        await api.register(ssoLogoutRoutes, { db, fixtures, auth, gateway: app, development, credentials: ssoCredentials });
        await api.register(userMgmtPasscodeRoutes, { db, auth });
        await api.register(userMgmtTotpRoutes, { db, fixtures, auth });
        await api.register(userMgmtRegistrationRoutes, { db, fixtures, auth, jobs });
        await api.register(hcaptchaVerificationRoutes, { auth });
        await api.register(userMgmtRecoveryRoutes, { db, auth, jobs });
        await api.register(userMgmtPasswordRoutes, { db, fixtures, auth, jobs });
        await api.register(userMgmtRemoveAccountRoutes, { db, fixtures, auth, jobs });
        await api.register(assetsRoutes, { db, fixtures, auth });
        await api.register(assetsValidationRoutes, { db, fixtures, auth });
        await api.register(userMgmtAliasRoutes, { db, auth, jobs });
        await api.register(conciergeRoutes, { db, fixtures, clock, jobs });
        await api.register(conciergeAttributeRoutes, { db, fixtures, clock, jobs });
        // Only in development, while mail goes to the development outbox (no SMTP_URL).
        if (auth.devOutbox && development) await api.register(devOutboxRoutes, { outbox: auth.devOutbox });
        // The route contract as OpenAPI (schemas/api/openapi.ts); development only, like the outbox reader (ADR 0018).
        if (development) await api.register(apiDocsRoutes, { fixtures });
        // Test hooks exist only in test mode, never on the production server.
        if (options.testMode) await api.register(testSupportRoutes, { db, clock, failures: injectedFailures });
      },
      { prefix },
    );
  }
  await app.register(offersRoutes, { fixtures });
  // ADR 0015: the test identity provider's people, and its key (derived, so every instance signs alike); development only (ADR 0018).
  if (development) {
    const keys = options.testIdpKeys ?? new TestIdpKeys(deriveSigningKey(auth.tokenSigningKey));
    await app.register(testIdpRoutes, { db, fixtures, clock, keys, credentials: ssoCredentials, identities: await loadSsoIdentities(fixtures) });
  }
  await app.register(promotionsConfigurationRoutes, { fixtures });
  await registerStaticApp(app, options.distDir, { siteGallery: options.siteGallery });
  return app;
}

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}
