import { gatewayApi } from '../api/gateway-api';

export interface GallerySite {
  siteId: string;
  name: string;
}

export interface GatewayVerdict {
  valid: boolean;
  fields: Record<string, string>;
}

/** The gallery's two calls: the site list (SITE_GALLERY) and the gateway's verdict on a payload. */
export const galleryApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- RTK Query's way to declare a query that takes no argument
    getGallerySites: build.query<GallerySite[], void>({
      query: () => ({ url: 'site-gallery/sites', siteId: 'default' }),
      transformResponse: (answer: { sites: GallerySite[] }) => answer.sites,
    }),
    validateOnGateway: build.mutation<GatewayVerdict, { siteId: string; locale: string; form: string; payload: unknown }>({
      // A 400 VALIDATION_FAILED is a verdict, not a failure: read it as data.
      queryFn: async ({ siteId, locale, form, payload }, _api, _extra, baseQuery) => {
        const result = await baseQuery({
          url: `forms/${encodeURIComponent(siteId)}/${encodeURIComponent(form)}/validate`,
          method: 'POST',
          params: { locale },
          data: payload,
          siteId,
        });
        if (!result.error) return { data: { valid: true, fields: {} } };
        if (result.error.code === 'VALIDATION_FAILED') return { data: { valid: false, fields: result.error.fields ?? {} } };
        return { error: result.error };
      },
    }),
  }),
});

export const { useGetGallerySitesQuery, useValidateOnGatewayMutation } = galleryApi;
