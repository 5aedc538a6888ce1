import type { SSO_FINISH_BODY, TEST_IDP_CHOICE_BODY } from '../../schemas/api/request-schemas';
import type { SSO_SIGN_IN_ANSWER, TEST_IDP_CHOICE_ANSWER, TEST_IDP_INTERACTION_ANSWER } from '../../schemas/api/response-schemas';
import type { SchemaType } from '../../schemas/api/schema-type';
import { gatewayApi } from './gateway-api';

export const ssoApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    /** POST user-auth/oidc/authorize { siteId, code, state } (SPEC §7, ADR 0015). */
    finishSsoSignIn: build.mutation<SchemaType<typeof SSO_SIGN_IN_ANSWER>, SchemaType<typeof SSO_FINISH_BODY>>({
      query: (body) => ({ url: 'user-auth/oidc/authorize', method: 'POST', data: body, siteId: body.siteId }),
    }),
    /** GET /test-idp/interactions/{id}: who the simulator may sign in as. */
    getSsoInteraction: build.query<SchemaType<typeof TEST_IDP_INTERACTION_ANSWER>, { siteId: string; interaction: string }>({
      query: ({ siteId, interaction }) => ({ url: `/test-idp/interactions/${encodeURIComponent(interaction)}`, siteId }),
    }),
    /** POST /test-idp/interactions/{id} { subject } -> the registered redirect URI with code and state. */
    chooseSsoIdentity: build.mutation<SchemaType<typeof TEST_IDP_CHOICE_ANSWER>, { siteId: string; interaction: string; subject: string }>({
      query: ({ siteId, interaction, subject }) => ({
        url: `/test-idp/interactions/${encodeURIComponent(interaction)}`,
        method: 'POST',
        data: { subject } satisfies SchemaType<typeof TEST_IDP_CHOICE_BODY>,
        siteId,
      }),
    }),
  }),
});

export const { useFinishSsoSignInMutation, useGetSsoInteractionQuery, useChooseSsoIdentityMutation } = ssoApi;
