import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import axios, { type AxiosError, type AxiosRequestConfig } from 'axios';

/**
 * The one RTK Query api for the gateway (SPEC §7). Services inject their endpoints
 * (see site-config-api.ts, content-api.ts); the base query owns the header rules.
 * Client-server mode is on in this build (SPEC §9 useClientServer), so the base is /api.
 */
export const GATEWAY_BASE_URL = '/api';

export interface GatewayRequest {
  url: string;
  method?: AxiosRequestConfig['method'];
  params?: Record<string, string | number>;
  data?: unknown;
  siteId: string;
}

export interface GatewayError {
  status: number;
  code: string;
  message: string;
  correlationId: string | null;
}

const http = axios.create({ baseURL: GATEWAY_BASE_URL, timeout: 15_000 });

export const gatewayBaseQuery: BaseQueryFn<GatewayRequest, unknown, GatewayError> = async (request) => {
  try {
    const response = await http.request({
      url: request.url,
      method: request.method ?? 'GET',
      params: request.params,
      data: request.data,
      // SPEC §7: every request carries the site id header.
      headers: { 'X-SITE-ID': request.siteId },
    });
    return { data: response.data };
  } catch (caught) {
    const error = caught as AxiosError<{ error?: string; message?: string }>;
    const status = error.response?.status ?? 0;
    return {
      error: {
        status,
        code: error.response?.data?.error ?? (status === 0 ? 'NETWORK_ERROR' : 'HTTP_ERROR'),
        message: error.response?.data?.message ?? error.message,
        correlationId: (error.response?.headers['x-cid'] as string | undefined) ?? null,
      },
    };
  }
};

export const gatewayApi = createApi({
  reducerPath: 'gatewayApi',
  baseQuery: gatewayBaseQuery,
  endpoints: () => ({}),
});
