import { gatewayApi } from './gateway-api';

/** SPEC §3 "Enrolled asset". */
export interface EnrolledAsset {
  assetId: string;
  metadata: { name: string; value: string }[];
  isDefaultAsset: boolean;
}

/** SPEC §7 GET user-attribute/user/assets/{siteId}: the signed-in user's cards; an empty list when the call fails. */
export const assetsApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    getAssets: build.query<EnrolledAsset[], string>({
      queryFn: async (siteId, _api, _extra, baseQuery) => {
        const answer = await baseQuery({ url: `user-attribute/user/assets/${encodeURIComponent(siteId)}`, siteId });
        return { data: answer.error || !Array.isArray(answer.data) ? [] : (answer.data as EnrolledAsset[]) };
      },
      providesTags: ['Assets'],
    }),
  }),
});

export const { useGetAssetsQuery } = assetsApi;
