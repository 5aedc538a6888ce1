import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
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
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/unsafe-(eval|inline)/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });
});
