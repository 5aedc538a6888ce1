import { promotionsConfigurationPath, promotionsLocaleOf } from '../../schemas/site-config/promotions-site';
import type { SiteConfig } from '../../schemas/site-config/types';
import defaultSite from '../../fixtures/default-site.json';
import { gatewayApi } from './gateway-api';

/** SPEC §8 "config fetch failures fall back silently": the default site, bundled, when not even the gateway's can be read. */
export const BUNDLED_DEFAULT_SITE = defaultSite as unknown as SiteConfig;

/**
 * SPEC §7 GET site-config-service/config/site/{siteId}; the service answers unknown sites with its default.
 * A promotions site (SPEC §1, host plus locale) reads the promotions hosts' variant,
 * GET {locale}/account/configurations/promotions-{locale}.json, and falls back to the service when it
 * fails, and to the bundled default site when the service fails too (SPEC §8: config fetch failures fall back silently).
 */
export const siteConfigApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    getSiteConfig: build.query<SiteConfig, string>({
      queryFn: async (siteId, _api, _extra, baseQuery) => {
        const locale = promotionsLocaleOf(siteId);
        if (locale !== null) {
          const promotions = await baseQuery({ url: promotionsConfigurationPath(locale), siteId });
          if (!promotions.error) return { data: promotions.data as SiteConfig };
        }
        const service = await baseQuery({ url: `site-config-service/config/site/${encodeURIComponent(siteId)}`, siteId });
        // A page still shows the default site's forms, on the server and in the browser alike (ADR 0024).
        return { data: service.error ? BUNDLED_DEFAULT_SITE : (service.data as SiteConfig) };
      },
      providesTags: (_result, _error, siteId) => [{ type: 'SiteConfig', id: siteId }],
    }),
  }),
});

export const { useGetSiteConfigQuery } = siteConfigApi;
