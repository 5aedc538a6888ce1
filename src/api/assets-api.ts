import type { CardModuleOptions } from '../../schemas/cards/card-config';
import { removeAssetUrlFor, updateAssetUrlFor } from '../../schemas/cards/card-config';
import type { CardValidation, EnrolledAsset } from '../../schemas/cards/card-assets';
import { userTypeInState, type AuthState } from '../auth/auth-machine';
import { gatewayApi } from './gateway-api';

interface CardCall {
  siteId: string;
  options: CardModuleOptions;
}

/**
 * SPEC §7 asset calls (ADR 0011), their paths from the site's pan_capture options. The list is
 * an empty list when the call fails (the profile still shows); the changes refetch it ('Assets').
 */
export const assetsApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    getAssets: build.query<EnrolledAsset[], string>({
      queryFn: async (siteId, api, _extra, baseQuery) => {
        // ADR 0014: a support agent sees the cards (last four only) of the card holder acted for.
        const concierge = userTypeInState((api.getState() as { auth: AuthState }).auth) === 'CONCIERGE';
        const answer = await baseQuery({ url: `${concierge ? 'user-attribute/concierge/user/assets' : 'user-attribute/user/assets'}/${encodeURIComponent(siteId)}`, siteId });
        return { data: answer.error || !Array.isArray(answer.data) ? [] : (answer.data as EnrolledAsset[]) };
      },
      providesTags: ['Assets'],
    }),
    /** The number's digits only (SPEC §7 "number with spaces removed"); nothing is cached. */
    validateCard: build.mutation<CardValidation, CardCall & { pan: string }>({
      query: ({ siteId, options, pan }) => ({
        url: options.assetsValidationUrl,
        method: 'POST',
        params: { siteId },
        data: { assetType: 'PAN', value: pan },
        siteId,
      }),
    }),
    enrolCard: build.mutation<EnrolledAsset[], CardCall & { pan: string }>({
      query: ({ siteId, options, pan }) => ({
        url: options.assetsUrl,
        method: 'POST',
        data: { siteId, userAssetRequest: [{ assetType: 'PAN', value: pan }] },
        siteId,
      }),
      invalidatesTags: ['Assets'],
    }),
    removeCard: build.mutation<unknown, CardCall & { id: string }>({
      query: ({ siteId, options, id }) => ({ url: removeAssetUrlFor(options, id), method: 'POST', siteId }),
      invalidatesTags: ['Assets'],
    }),
    setDefaultCard: build.mutation<EnrolledAsset, CardCall & { id: string }>({
      query: ({ siteId, options, id }) => ({ url: updateAssetUrlFor(options, id), method: 'POST', data: { isDefaultAsset: true }, siteId }),
      invalidatesTags: ['Assets'],
    }),
  }),
});

export const { useGetAssetsQuery, useValidateCardMutation, useEnrolCardMutation, useRemoveCardMutation, useSetDefaultCardMutation } = assetsApi;
