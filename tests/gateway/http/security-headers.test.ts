import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CONTENT_SECURITY_POLICY, contentSecurityPolicy } from '../../../gateway/http/security-headers';
import { buildTestGateway } from '../support/test-gateway';

// DESIGN "Quality bars": the app runs under a strict CSP (no unsafe-eval, no inline script).
describe('security headers', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestGateway();
  });
  afterAll(async () => {
    await app.close();
  });

  it.each(['/api/health', '/api/site-config-service/config/site/firstbank', '/api/no-such-call', '/'])('%s carries the strict policy', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    const policy = String(response.headers['content-security-policy']);
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("style-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/unsafe-(eval|inline)/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
  });
});

// ADR 0013: remote hosts only when configured; nothing configured keeps the policy as it was.
describe('contentSecurityPolicy', () => {
  it('is the strict default when nothing is configured', () => {
    expect(contentSecurityPolicy()).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
    );
  });

  it("lists hCaptcha's hosts for script, style, calls and its frame when the captcha is configured", () => {
    const directives = contentSecurityPolicy({ captcha: true }).split('; ');
    expect(directives).toContain("script-src 'self' https://hcaptcha.com https://*.hcaptcha.com");
    expect(directives).toContain("style-src 'self' https://hcaptcha.com https://*.hcaptcha.com");
    expect(directives).toContain("connect-src 'self' https://hcaptcha.com https://*.hcaptcha.com");
    expect(directives).toContain('frame-src https://hcaptcha.com https://*.hcaptcha.com');
    expect(directives).toContain("frame-ancestors 'none'");
    expect(directives.join('; ')).not.toMatch(/unsafe-(eval|inline)/);
  });

  it('lists the configured analytics tag hosts for script, calls and beacons only', () => {
    const directives = contentSecurityPolicy({ analyticsHosts: ['https://www.googletagmanager.com'] }).split('; ');
    expect(directives).toContain("script-src 'self' https://www.googletagmanager.com");
    expect(directives).toContain("connect-src 'self' https://www.googletagmanager.com");
    expect(directives).toContain("img-src 'self' data: https://www.googletagmanager.com");
    expect(directives).toContain("style-src 'self'");
    expect(directives.some((directive) => directive.startsWith('frame-src'))).toBe(false);
  });
});
