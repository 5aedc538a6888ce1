import type { CardModuleOptions } from '../../schemas/cards/card-config';
import { cardCallPathsFor } from '../../schemas/cards/card-config';
import type { EnrolledAsset } from '../../schemas/api/enrolled-asset';
import type { CARD_ENROLMENT_BODY, CARD_VALIDATION_BODY, SET_DEFAULT_CARD_BODY } from '../../schemas/api/request-schemas';
import type { CARD_VALIDATION_ANSWER } from '../../schemas/api/response-schemas';
import type { SchemaType } from '../../schemas/api/schema-type';
import { userTypeInState, type AuthState } from '../auth/auth-machine';
import { gatewayApi } from './gateway-api';

interface CardCall {
  siteId: string;
  options: CardModuleOptions;
}

/**
 * SPEC §7 asset calls (ADR 0011), their paths from the site's pan_capture options. The list is
 * an empty list when the call fails (the profile still shows); the changes refetch it ('Cards').
 */
export const cardsApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    getCards: build.query<EnrolledAsset[], string>({
      queryFn: async (siteId, api, _extra, baseQuery) => {
        // ADR 0014: a support agent sees the cards (last four only) of the card holder acted for.
        const concierge = userTypeInState((api.getState() as { auth: AuthState }).auth) === 'CONCIERGE';
        const answer = await baseQuery({
          url: `${concierge ? 'user-attribute/concierge/user/assets' : 'user-attribute/user/assets'}/${encodeURIComponent(siteId)}`,
          siteId,
        });
        return { data: answer.error || !Array.isArray(answer.data) ? [] : (answer.data as EnrolledAsset[]) };
      },
      providesTags: ['Cards'],
    }),
    /**
     * The number's digits only (SPEC §7 "number with spaces removed"), and the security code where the site
     * asks one (ADR 0001 capture_cvv); nothing is cached. The store keeps a mutation's arguments until it is
     * reset, so the callers reset each check once answered (`checkCard`): the code is in memory no longer.
     */
    validateCard: build.mutation<SchemaType<typeof CARD_VALIDATION_ANSWER>, CardCall & { pan: string; cvv?: string }>({
      query: ({ siteId, options, pan, cvv }) => ({
        url: options.assetsValidationUrl,
        method: 'POST',
        params: { siteId },
        data: (cvv === undefined ? { assetType: 'PAN', value: pan } : { assetType: 'PAN', value: pan, cvv }) satisfies SchemaType<typeof CARD_VALIDATION_BODY>,
        siteId,
      }),
    }),
    enrolCard: build.mutation<EnrolledAsset[], CardCall & { pan: string }>({
      query: ({ siteId, options, pan }) => ({
        url: options.assetsUrl,
        method: 'POST',
        data: { siteId, userAssetRequest: [{ assetType: 'PAN', value: pan }] } satisfies SchemaType<typeof CARD_ENROLMENT_BODY>,
        siteId,
      }),
      invalidatesTags: ['Cards'],
    }),
    removeCard: build.mutation<unknown, CardCall & { id: string }>({
      query: ({ siteId, options, id }) => ({ url: cardCallPathsFor(options, id).remove, method: 'POST', siteId }),
      invalidatesTags: ['Cards'],
    }),
    setDefaultCard: build.mutation<EnrolledAsset, CardCall & { id: string }>({
      query: ({ siteId, options, id }) => ({
        url: cardCallPathsFor(options, id).setDefault,
        method: 'POST',
        data: { isDefaultAsset: true } satisfies SchemaType<typeof SET_DEFAULT_CARD_BODY>,
        siteId,
      }),
      invalidatesTags: ['Cards'],
    }),
  }),
});

/**
 * Runs one validation call and clears its entry (arguments included: the number, the security code) from the
 * store as soon as the answer is read (ADR 0001 capture_cvv: never kept).
 */
export async function checkCard<Answer>(trigger: () => PromiseLike<Answer> & { reset(): void }): Promise<Answer> {
  const call = trigger();
  try {
    return await call;
  } finally {
    call.reset();
  }
}

export const { useGetCardsQuery, useValidateCardMutation, useEnrolCardMutation, useRemoveCardMutation, useSetDefaultCardMutation } = cardsApi;
