import type { SiteConfig } from '../../schemas/site-config/types';
import { gatewayApi } from './gateway-api';

/** SPEC §7 GET site-config-service/config/site/{siteId}; the service answers unknown sites with its default. */
export const siteConfigApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    getSiteConfig: build.query<SiteConfig, string>({
      query: (siteId) => ({ url: `site-config-service/config/site/${encodeURIComponent(siteId)}`, siteId }),
      providesTags: (_result, _error, siteId) => [{ type: 'SiteConfig', id: siteId }],
    }),
  }),
});

export const { useGetSiteConfigQuery } = siteConfigApi;
