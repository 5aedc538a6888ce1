import { gatewayApi } from './gateway-api';

/** SPEC §3 token response. */
export interface TokenAnswer {
  access_token: string;
  expires_in: number;
  refresh_token?: string;
}

/** SPEC §7 user-auth service: the call the auth machine (§4) needs; sign-in and sign-out arrive with issue 5. */
export const userAuthApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    /** §7: POST user-auth/oauth/token, grant_type refresh_token with refresh_token and siteId (multipart). */
    refreshToken: build.mutation<TokenAnswer, { siteId: string; refreshToken: string }>({
      query: ({ siteId, refreshToken }) => {
        const form = new FormData();
        form.set('grant_type', 'refresh_token');
        form.set('refresh_token', refreshToken);
        form.set('siteId', siteId);
        return { url: 'user-auth/oauth/token', method: 'POST', data: form, siteId, ownsAuthFailure: true };
      },
      invalidatesTags: ['AuthState', 'Profile', 'UserAttributes', 'Assets'],
    }),
  }),
});
