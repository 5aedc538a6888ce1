import type { CONTENT_ANSWER } from '../../schemas/api/response-schemas';
import type { SchemaType } from '../../schemas/api/schema-type';
import { featureConfigOf } from '../../schemas/site-config/types';
import { gatewayApi } from './gateway-api';
import { siteConfigApi } from './site-config-api';

export type ContentTexts = Readonly<Record<string, string>>;

type ContentAnswer = SchemaType<typeof CONTENT_ANSWER>;

export interface ContentRequest {
  siteId: string;
  locale: string;
  contentType: string;
}

/** SPEC §3 cms tenant: "default" (or none) reads content version 2; any other tenant version 3. */
const DEFAULT_CMS_TENANT = 'default';

/**
 * SPEC §7 GET {base}/bin/aem/rest with version, contentType, level=-1, locale, siteId: version 2, or
 * 3 when the site's cms tenant is not default, and then also GET {base}/cmsapi/content.data.json/vpp/
 * {siteId}/{path}, whose texts win. Either call failing fails the query, and the screens show the
 * bundled default texts (`useContentTexts`); a site configuration that cannot be read means version 2.
 */
export const contentApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    getContent: build.query<ContentTexts, ContentRequest>({
      queryFn: async ({ siteId, locale, contentType }, api, _extra, baseQuery) => {
        const site = await api.dispatch(siteConfigApi.endpoints.getSiteConfig.initiate(siteId, { subscribe: false }));
        const tenant = (site.data ? featureConfigOf(site.data, 'cms').tenant : undefined) ?? DEFAULT_CMS_TENANT;
        const version = tenant === DEFAULT_CMS_TENANT ? 2 : 3;
        const aem = await baseQuery({ url: 'bin/aem/rest', params: { version, contentType, level: -1, locale, siteId }, siteId });
        if (aem.error) return { error: aem.error };
        const texts = (aem.data as ContentAnswer).content;
        if (version === 2) return { data: texts };
        const cms = await baseQuery({
          url: `cmsapi/content.data.json/vpp/${encodeURIComponent(siteId)}/${encodeURIComponent(siteId)}/${encodeURIComponent(contentType)}`,
          params: { locale },
          siteId,
        });
        if (cms.error) return { error: cms.error };
        return { data: { ...texts, ...(cms.data as ContentAnswer).content } };
      },
      providesTags: (_result, _error, { locale, contentType }) => [{ type: 'Content', id: `${locale}/${contentType}` }],
    }),
  }),
});

export const { useGetContentQuery } = contentApi;
