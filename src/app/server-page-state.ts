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
