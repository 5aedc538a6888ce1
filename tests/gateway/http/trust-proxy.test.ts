import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../gateway/config';
import { buildGateway } from '../../../gateway/server';
import { realFixtures, stubDatabase } from '../support/test-gateway';

/** The load balancers of these tests; the second one, nearest the gateway, connects to it. */
const FIRST_PROXY = '10.0.0.5';
const SECOND_PROXY = '10.0.0.6';
/** The card holder's own address, as the proxy nearest them saw it. */
const CLIENT = '198.51.100.7';
/** What a client writes in its own X-Forwarded-For to pass for someone else. */
const FORGED = '203.0.113.66';

/**
 * DESIGN "Scale": behind a load balancer the per-IP limits (ADR 0008) must count the client, not the
 * proxy. The client address the gateway takes (`request.ip`) with TRUST_PROXY as the environment gives
 * it, for a request whose socket peer is `peer` and whose X-Forwarded-For the proxies left as `forwardedFor`.
 */
async function clientAddressSeen(trustProxy: string | undefined, peer = FIRST_PROXY, forwardedFor = '203.0.113.9'): Promise<string> {
  const setting = readConfig(trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy }).trustProxy;
  const app = await buildGateway({ db: stubDatabase, fixtures: await realFixtures(), trustProxy: setting });
  let seen = '';
  app.addHook('onRequest', async (request) => {
    seen = request.ip;
  });
  await app.inject({ method: 'GET', url: '/api/health', remoteAddress: peer, headers: { 'x-forwarded-for': forwardedFor } });
  await app.close();
  return seen;
}

describe('TRUST_PROXY', () => {
  it('ignores X-Forwarded-For by default, so a client cannot pick its own address', async () => {
    expect(await clientAddressSeen(undefined)).toBe(FIRST_PROXY);
  });

  it.each(['true', '1', '10.0.0.0/8'])('reads the client address from a trusted proxy (%s)', async (setting) => {
    expect(await clientAddressSeen(setting)).toBe('203.0.113.9');
  });

  it('does not trust a proxy outside the listed addresses', async () => {
    expect(await clientAddressSeen('192.168.0.0/16')).toBe(FIRST_PROXY);
  });
});

// ADR 0017: a proxy appends the address it saw to what the client sent, so only the right-hand end of the header is the proxies'.
describe('TRUST_PROXY: a forged left-most X-Forwarded-For address is never the client', () => {
  it.each([FORGED, `${FORGED}, 192.0.2.1`, `${FORGED}, ${SECOND_PROXY}`])(
    'hop count 1 behind one proxy takes the address the proxy appended, whatever the client wrote first (%s)',
    async (written) => {
      expect(await clientAddressSeen('1', FIRST_PROXY, `${written}, ${CLIENT}`)).toBe(CLIENT);
    },
  );

  it.each([FORGED, `${FORGED}, 192.0.2.1`])('hop count 2 behind two proxies takes the address the first proxy appended (%s)', async (written) => {
    expect(await clientAddressSeen('2', SECOND_PROXY, `${written}, ${CLIENT}, ${FIRST_PROXY}`)).toBe(CLIENT);
  });

  it("the proxies' addresses take the same address behind one proxy and behind two", async () => {
    expect(await clientAddressSeen('10.0.0.5', FIRST_PROXY, `${FORGED}, ${CLIENT}`)).toBe(CLIENT);
    expect(await clientAddressSeen('10.0.0.0/8', SECOND_PROXY, `${FORGED}, ${CLIENT}, ${FIRST_PROXY}`)).toBe(CLIENT);
  });

  it('true takes the forged address, which is why production mode refuses it', async () => {
    expect(await clientAddressSeen('true', FIRST_PROXY, `${FORGED}, ${CLIENT}`)).toBe(FORGED);
    expect(await clientAddressSeen('true', SECOND_PROXY, `${FORGED}, ${CLIENT}, ${FIRST_PROXY}`)).toBe(FORGED);
  });

  // README "Production": a hop count trusts whoever connects, by position; an address list trusts the proxies only.
  it('a hop count believes a client that reaches the gateway past the proxies; the address list does not', async () => {
    expect(await clientAddressSeen('1', CLIENT, FORGED)).toBe(FORGED);
    expect(await clientAddressSeen('10.0.0.0/8', CLIENT, FORGED)).toBe(CLIENT);
  });
});
