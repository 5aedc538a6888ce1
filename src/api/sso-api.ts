import { gatewayApi } from './gateway-api';

/** ADR 0015: the finish of the SSO sign-in, ADR 0008's 200 plus where the person was going. */
export interface SsoSignInAnswer {
  status: 'SIGNED_IN';
  expires_in: number;
  lastVisitedPath: string | null;
}

/** ADR 0015 identity picker of the gateway's test identity provider. */
export interface SimulatedIdentity {
  subject: string;
  email: string;
  givenName: string;
  familyName: string;
}

export const ssoApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    /** POST user-auth/oidc/authorize { siteId, code, state } (SPEC §7, ADR 0015). */
    finishSsoSignIn: build.mutation<SsoSignInAnswer, { siteId: string; code: string; state: string }>({
      query: ({ siteId, code, state }) => ({ url: 'user-auth/oidc/authorize', method: 'POST', data: { siteId, code, state }, siteId }),
    }),
    /** GET /test-idp/interactions/{id}: who the simulator may sign in as. */
    getSsoInteraction: build.query<{ identities: SimulatedIdentity[] }, { siteId: string; interaction: string }>({
      query: ({ siteId, interaction }) => ({ url: `/test-idp/interactions/${encodeURIComponent(interaction)}`, siteId }),
    }),
    /** POST /test-idp/interactions/{id} { subject } -> the registered redirect URI with code and state. */
    chooseSsoIdentity: build.mutation<{ redirectTo: string }, { siteId: string; interaction: string; subject: string }>({
      query: ({ siteId, interaction, subject }) => ({
        url: `/test-idp/interactions/${encodeURIComponent(interaction)}`,
        method: 'POST',
        data: { subject },
        siteId,
      }),
    }),
  }),
});

export const { useFinishSsoSignInMutation, useGetSsoInteractionQuery, useChooseSsoIdentityMutation } = ssoApi;
