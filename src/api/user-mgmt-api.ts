import { gatewayApi } from './gateway-api';

/** SPEC §3 "User profile". */
export interface UserProfile {
  dob: string | null;
  email: string;
  firstName: string | null;
  lastName: string | null;
  title: string | null;
  userAccountStatus: string;
  primaryUserIdentifier: string;
  mfaEnrollmentStatus: string;
  gender?: string;
}

export interface ProfileRequest {
  siteId: string;
  /** §6: a support agent's own endpoint. */
  concierge: boolean;
}

/** SPEC §7 user-mgmt service. */
export const userMgmtApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET user-mgmt/user/find (concierge: find-concierge). §8: a failed user fetch yields null silently. */
    getProfile: build.query<UserProfile | null, ProfileRequest>({
      queryFn: async ({ siteId, concierge }, _api, _extra, baseQuery) => {
        const answer = await baseQuery({ url: concierge ? 'user-mgmt/user/find-concierge' : 'user-mgmt/user/find', siteId });
        return { data: answer.error ? null : (answer.data as UserProfile) };
      },
      providesTags: ['Profile'],
    }),
  }),
});

export const { useGetProfileQuery } = userMgmtApi;
