import type { FastifyInstance } from 'fastify';

/**
 * The app runs under a strict Content-Security-Policy (DESIGN "Quality bars"): scripts and styles
 * only from the portal's own origin, no inline script, no `unsafe-eval` (the form engine validates
 * without code generation, docs/decisions/0006), no framing. Sent on every response so an API answer
 * opened in a tab is as locked down as the app.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function addSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('x-frame-options', 'DENY');
  });
}
