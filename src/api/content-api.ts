import { gatewayApi } from './gateway-api';

export type ContentTexts = Readonly<Record<string, string>>;

interface ContentAnswer {
  content: Record<string, string>;
}

export interface ContentRequest {
  siteId: string;
  locale: string;
  contentType: string;
}

/** SPEC §7 GET {base}/bin/aem/rest with version, contentType, level=-1, locale, siteId. */
export const contentApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    getContent: build.query<ContentTexts, ContentRequest>({
      query: ({ siteId, locale, contentType }) => ({
        url: 'bin/aem/rest',
        params: { version: 2, contentType, level: -1, locale, siteId },
        siteId,
      }),
      transformResponse: (answer: ContentAnswer) => answer.content,
      providesTags: (_result, _error, { locale, contentType }) => [{ type: 'Content', id: `${locale}/${contentType}` }],
    }),
  }),
});

export const { useGetContentQuery } = contentApi;
