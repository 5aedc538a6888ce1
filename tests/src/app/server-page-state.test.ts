import { describe, expect, it } from 'vitest';
import { cacheForPage, cacheFromPage } from '../../../src/app/server-page-state';

/** ADR 0024: the page carries the gateway API's cache without RTK Query's request record; the browser writes it again. */
describe("the gateway API's cache in a server page", () => {
  const serverCache = {
    queries: {
      'getSiteConfig("firstbank")': {
        status: 'fulfilled',
        endpointName: 'getSiteConfig',
        requestId: 'dCPNdg9mXMOrQLCES8iVM',
        originalArgs: 'firstbank',
        startedTimeStamp: 1795777907791,
        fulfilledTimeStamp: 1795777907830,
        data: { siteId: 'firstbank' },
      },
      'getContent({"contentType":"errors"})': { status: 'rejected', endpointName: 'getContent', requestId: 'x', startedTimeStamp: 1, error: { status: 500 } },
    },
    mutations: {},
    provided: { tags: { SiteConfig: { firstbank: ['getSiteConfig("firstbank")'] } } },
  };

  it('leaves out each query’s id and times, and keeps everything else', () => {
    const carried = cacheForPage(serverCache) as typeof serverCache;
    expect(carried.queries['getSiteConfig("firstbank")']).toEqual({
      status: 'fulfilled',
      endpointName: 'getSiteConfig',
      originalArgs: 'firstbank',
      data: { siteId: 'firstbank' },
    });
    expect(carried.queries['getContent({"contentType":"errors"})']).toEqual({ status: 'rejected', endpointName: 'getContent', error: { status: 500 } });
    expect(carried.provided).toEqual(serverCache.provided);
    expect(JSON.stringify(carried)).not.toMatch(/requestId|TimeStamp/);
  });

  it('is taken back by the browser as fetched at load, so no screen asks for an answered query again', () => {
    const taken = cacheFromPage(cacheForPage(serverCache), 42) as typeof serverCache;
    expect(taken.queries['getSiteConfig("firstbank")']).toMatchObject({
      status: 'fulfilled',
      startedTimeStamp: 42,
      fulfilledTimeStamp: 42,
      data: { siteId: 'firstbank' },
    });
    expect(taken.queries['getSiteConfig("firstbank")'].requestId).toEqual(expect.any(String));
    // A refused answer has no fulfilled time: the screen that needs it asks again, as RTK Query would.
    expect(taken.queries['getContent({"contentType":"errors"})']).not.toHaveProperty('fulfilledTimeStamp');
  });

  it('passes anything that is not a cache through unchanged', () => {
    for (const odd of [null, 'text', { queries: null }]) {
      expect(cacheForPage(odd)).toEqual(odd);
      expect(cacheFromPage(odd, 1)).toEqual(odd);
    }
  });
});
