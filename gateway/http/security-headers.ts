import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The app runs under a strict Content-Security-Policy (DESIGN "Quality bars"): scripts and styles
 * only from the portal's own origin (and a server page's own stylesheets, by hash), no inline script,
 * no `unsafe-eval` (the form engine validates
 * without code generation, docs/decisions/0006), no framing. Sent on every response so an API answer
 * opened in a tab is as locked down as the app.
 */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/** hCaptcha's hosts, as its documentation lists them for a CSP: the script, its frame, styles and calls. */
export const HCAPTCHA_HOSTS = ['https://hcaptcha.com', 'https://*.hcaptcha.com'] as const;

/** Remote hosts the policy lets in, only when the deployment configures them (ADR 0013). */
export interface ContentSecuritySources {
  /** hCaptcha is configured (HCAPTCHA_SECRET): its hosts may serve script, frame, style and calls. */
  captcha?: boolean;
  /** Hosts of the region analytics tags (ANALYTICS_TAG_HOSTS): script, calls and beacons. */
  analyticsHosts?: readonly string[];
  /** `'sha256-…'` sources of the inline stylesheets one answer carries (a server page, ADR 0024): those exact texts only. */
  inlineStyles?: readonly string[];
}

/** The policy; with nothing configured it is the strict default, 'self' only. */
export function contentSecurityPolicy(sources: ContentSecuritySources = {}): string {
  const captcha = sources.captcha ? HCAPTCHA_HOSTS : [];
  const analytics = sources.analyticsHosts ?? [];
  const withHosts = (directive: string, base: string, hosts: readonly string[]) => [directive, base, ...hosts].join(' ');
  return [
    "default-src 'self'",
    withHosts('script-src', "'self'", [...captcha, ...analytics]),
    withHosts('style-src', "'self'", [...captcha, ...(sources.inlineStyles ?? [])]),
    withHosts('img-src', "'self' data:", analytics),
    "font-src 'self'",
    withHosts('connect-src', "'self'", [...captcha, ...analytics]),
    ...(captcha.length > 0 ? [['frame-src', ...captcha].join(' ')] : []),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Two years, the value HSTS preload lists ask for. */
export const HSTS_MAX_AGE_SECONDS = 63_072_000;

/**
 * The headers every response carries, with `policy` as its CSP. Answers the gateway writes before
 * any route (a malformed request, headers too large: `http/errors.ts`) carry them with the strict
 * default policy: an error in JSON loads nothing.
 */
export function securityHeaders(policy: string = CONTENT_SECURITY_POLICY): Readonly<Record<string, string>> {
  return {
    'content-security-policy': policy,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
    // HTTPS only for two years, subdomains too. Browsers ignore it over plain HTTP
    // (RFC 6797 §8.1), so local and test runs are unaffected.
    'strict-transport-security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`,
  };
}

const inlineStylesOfAnswer = new WeakMap<FastifyReply, readonly string[]>();

/**
 * Lets this answer's own inline stylesheets in, each by the hash of its text (a server page, ADR 0024): the
 * policy never says 'unsafe-inline', so a style anyone else injects is still refused.
 */
export function allowInlineStyles(reply: FastifyReply, sources: readonly string[]): void {
  inlineStylesOfAnswer.set(reply, sources);
}

export function addSecurityHeaders(app: FastifyInstance, sources: ContentSecuritySources = {}): void {
  const headers = securityHeaders(contentSecurityPolicy(sources));
  app.addHook('onSend', async (_request, reply) => {
    const inlineStyles = inlineStylesOfAnswer.get(reply);
    reply.headers(inlineStyles === undefined ? headers : securityHeaders(contentSecurityPolicy({ ...sources, inlineStyles })));
  });
}
