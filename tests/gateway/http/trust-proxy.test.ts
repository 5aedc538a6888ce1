import { describe, expect, it } from 'vitest';
import { buildGateway } from '../../../gateway/server';
import { realFixtures, stubDatabase } from '../support/test-gateway';

// DESIGN "Scale": behind a load balancer the per-IP limits (ADR 0008) must count the client, not the proxy.
async function clientAddressSeen(trustProxy: boolean | number | string[] | undefined): Promise<string> {
  const app = await buildGateway({ db: stubDatabase, fixtures: await realFixtures(), trustProxy });
  let seen = '';
  app.addHook('onRequest', async (request) => {
    seen = request.ip;
  });
  await app.inject({ method: 'GET', url: '/api/health', remoteAddress: '10.0.0.5', headers: { 'x-forwarded-for': '203.0.113.9' } });
  await app.close();
  return seen;
}

describe('TRUST_PROXY', () => {
  it('ignores X-Forwarded-For by default, so a client cannot pick its own address', async () => {
    expect(await clientAddressSeen(undefined)).toBe('10.0.0.5');
  });

  it.each([[true], [1], [['10.0.0.0/8']]] as const)('reads the client address from a trusted proxy (%j)', async (setting) => {
    expect(await clientAddressSeen(setting as boolean | number | string[])).toBe('203.0.113.9');
  });

  it('does not trust a proxy outside the listed addresses', async () => {
    expect(await clientAddressSeen(['192.168.0.0/16'])).toBe('10.0.0.5');
  });
});
