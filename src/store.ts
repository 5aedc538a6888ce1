import { configureStore } from '@reduxjs/toolkit';
import { gatewayApi } from './api/gateway-api';

export function createStore() {
  return configureStore({
    reducer: { [gatewayApi.reducerPath]: gatewayApi.reducer },
    middleware: (getDefault) => getDefault().concat(gatewayApi.middleware),
  });
}

export type AppStore = ReturnType<typeof createStore>;
