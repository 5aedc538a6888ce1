import { localeRegion } from '../../schemas/locales/locale-table';
import { gatewayApi } from './gateway-api';

export interface OfferCategory {
  id: string;
  name: string;
}

/** §7: categories by language code, except Chinese, which needs the full locale. */
function categoryKey(locale: string): string {
  const language = locale.slice(0, 2);
  return language === 'zh' ? locale : language;
}

type CustomizedCategories = Partial<Record<string, Partial<Record<string, OfferCategory[]>>>>;

/**
 * SPEC §7: GET /offersdata/customized-categories.json (custom categories by locale region, then
 * language code), falling back to GET /offers/api/categories?locale={locale}. §8: a failed
 * offers fetch yields an empty list silently. Both are page-root paths, not gateway paths.
 */
export const offersApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    getOfferCategories: build.query<OfferCategory[], { siteId: string; locale: string }>({
      queryFn: async ({ siteId, locale }, _api, _extra, baseQuery) => {
        const customized = await baseQuery({ url: '/offersdata/customized-categories.json', siteId });
        const chosen = customized.error ? undefined : (customized.data as CustomizedCategories)[localeRegion(locale)]?.[categoryKey(locale)];
        if (chosen) return { data: chosen };
        const fallback = await baseQuery({ url: '/offers/api/categories', params: { locale }, siteId });
        return { data: fallback.error || !Array.isArray(fallback.data) ? [] : (fallback.data as OfferCategory[]) };
      },
      providesTags: (_result, _error, { locale }) => [{ type: 'OfferCategories', id: locale }],
    }),
  }),
});

export const { useGetOfferCategoriesQuery } = offersApi;
