import { createAction } from '@reduxjs/toolkit';

/**
 * The server renderer's store, as the browser's store starts from it (ADR 0024): the gateway API's
 * cache (RTK Query takes it through `extractRehydrationInfo`) and the other slices as preloaded state.
 */
export interface ServerStoreState {
  gatewayApi: unknown;
  slices: Readonly<Record<string, unknown>>;
}

/** Dispatched once, before the first render, with the cache the server filled. */
export const serverCacheReceived = createAction<unknown>('serverPage/cacheReceived');

/**
 * RTK Query's own record of each request: a random id and two times, about 60 bytes per query that hardly compress
 * (a quarter of a kilobyte of a sign-in page, whose first round trip holds 14 KB; ADR 0024). The page leaves them
 * out and the browser writes them again.
 */
const REQUEST_RECORD = ['requestId', 'startedTimeStamp', 'fulfilledTimeStamp'] as const;

type QueryEntries = Record<string, Record<string, unknown> | undefined>;

function mapQueries(cache: unknown, entryOf: (key: string, entry: Record<string, unknown>) => Record<string, unknown>): unknown {
  if (typeof cache !== 'object' || cache === null || !('queries' in cache)) return cache;
  const { queries } = cache;
  if (typeof queries !== 'object' || queries === null) return cache;
  const mapped: QueryEntries = {};
  for (const [key, entry] of Object.entries(queries as QueryEntries)) mapped[key] = entry === undefined ? entry : entryOf(key, entry);
  return { ...cache, queries: mapped };
}

/** The gateway API's cache as the server's page carries it: each query without its request record. */
export function cacheForPage(cache: unknown): unknown {
  return mapQueries(cache, (_key, entry) =>
    Object.fromEntries(Object.entries(entry).filter(([name]) => !(REQUEST_RECORD as readonly string[]).includes(name))),
  );
}

/**
 * The page's cache as the browser's store takes it: each answered query fetched `now`, which is what keeps RTK Query
 * from asking for it again when a screen first uses it (a query with no fulfilled time is fetched on mount).
 */
export function cacheFromPage(cache: unknown, now: number): unknown {
  return mapQueries(cache, (key, entry) => ({
    requestId: `server-page:${key}`,
    startedTimeStamp: now,
    ...(entry.status === 'fulfilled' ? { fulfilledTimeStamp: now } : {}),
    ...entry,
  }));
}
