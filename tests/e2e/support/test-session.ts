import type { BrowserContext } from 'playwright-core';

/**
 * Signs a seeded demo user in for a browser context through the gateway's test-mode hook
 * (`POST /api/test-support/session`, present only with GATEWAY_TEST_MODE=true). The context's
 * request client shares its cookie jar, so the browser is signed in afterwards.
 */
export async function signInForTest(context: BrowserContext, baseUrl: string, email: string, siteId: string): Promise<void> {
  const response = await context.request.post(`${baseUrl}/api/test-support/session`, { data: { email, siteId } });
  if (!response.ok()) throw new Error(`test-mode sign-in of ${email} on ${siteId} failed: ${response.status()} ${await response.text()}`);
}
