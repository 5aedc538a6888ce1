import type { ACT_FOR_BODY } from '../../schemas/api/request-schemas';
import type { ACT_FOR_ANSWER, ACTING_FOR_ANSWER, ACTING_FOR_SCHEMA } from '../../schemas/api/response-schemas';
import type { SchemaType } from '../../schemas/api/schema-type';
import { gatewayApi } from './gateway-api';

/** ADR 0014: the display data of the card holder a support agent acts for (never secret). */
export type ActingFor = SchemaType<typeof ACTING_FOR_SCHEMA>;

/** What acting for someone else changes: everything the screens read for "the user". */
const USER_DATA_TAGS = ['Profile', 'UserAttributes', 'Cards'] as const;

/** ADR 0014 concierge calls of the agent's own (SPEC §6 "uses separate endpoints"). */
export const conciergeApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET user-mgmt/user/concierge/act-for: who the agent acts for, or null. */
    getActingFor: build.query<ActingFor | null, { siteId: string }>({
      query: ({ siteId }) => ({ url: 'user-mgmt/user/concierge/act-for', siteId }),
      transformResponse: (answer: SchemaType<typeof ACTING_FOR_ANSWER>) => answer.actingFor,
      providesTags: ['Profile'],
    }),
    /** POST user-mgmt/user/concierge/act-for { email }: 404 USER_NOT_FOUND, 400 VALIDATION_FAILED naming email. */
    actFor: build.mutation<ActingFor, { siteId: string; email: string }>({
      query: ({ siteId, email }) => ({
        url: 'user-mgmt/user/concierge/act-for',
        method: 'POST',
        data: { email } satisfies SchemaType<typeof ACT_FOR_BODY>,
        siteId,
      }),
      transformResponse: (answer: SchemaType<typeof ACT_FOR_ANSWER>) => answer.actingFor,
      invalidatesTags: (_result, error) => (error === undefined ? [...USER_DATA_TAGS] : []),
    }),
    /** POST user-mgmt/user/concierge/stop-acting, empty body; the gateway expires gmap_support_details. */
    stopActing: build.mutation<unknown, { siteId: string }>({
      query: ({ siteId }) => ({ url: 'user-mgmt/user/concierge/stop-acting', method: 'POST', siteId }),
      invalidatesTags: [...USER_DATA_TAGS],
    }),
  }),
});

export const { useGetActingForQuery, useActForMutation, useStopActingMutation } = conciergeApi;
