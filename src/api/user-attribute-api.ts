import { gatewayApi } from './gateway-api';

/** SPEC §3 "User site attributes by key"; values are strings or nested settings (opt-ins, address). */
export type UserSiteAttributes = Readonly<Record<string, unknown>>;

interface UserAttributesAnswer {
  userSites?: Record<string, { attributes?: UserSiteAttributes }>;
}

export interface UserAttributesRequest {
  siteId: string;
  /** §7: a support agent reads user-attribute/concierge/user/{siteId}. */
  concierge: boolean;
}

/** SPEC §7 user-attribute service (assets are in assets-api). */
export const userAttributeApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    /**
     * GET user-attribute/user/background/{siteId} → passesBackgroundCheck (§4). The auth machine
     * turns every error into its own state, so §8's authentication-failure rule stays out of it.
     */
    getBackgroundCheck: build.query<{ passesBackgroundCheck: boolean }, string>({
      query: (siteId) => ({ url: `user-attribute/user/background/${encodeURIComponent(siteId)}`, siteId, ownsAuthFailure: true }),
      providesTags: ['AuthState'],
    }),
    /** GET user-attribute/user/{siteId} → userSites[siteId].attributes; null when the call fails. */
    getUserSiteAttributes: build.query<UserSiteAttributes | null, UserAttributesRequest>({
      queryFn: async ({ siteId, concierge }, _api, _extra, baseQuery) => {
        const path = concierge ? 'user-attribute/concierge/user' : 'user-attribute/user';
        const answer = await baseQuery({ url: `${path}/${encodeURIComponent(siteId)}`, siteId });
        if (answer.error) return { data: null };
        return { data: (answer.data as UserAttributesAnswer).userSites?.[siteId]?.attributes ?? {} };
      },
      providesTags: ['UserAttributes'],
    }),
    /** POST user-attribute/v2/user/{siteId} { attributes }: §4 saves the site locale this way on USER_NOT_FOUND. */
    saveUserSiteAttributes: build.mutation<unknown, { siteId: string; attributes: UserSiteAttributes }>({
      query: ({ siteId, attributes }) => ({ url: `user-attribute/v2/user/${encodeURIComponent(siteId)}`, method: 'POST', data: { attributes }, siteId, ownsAuthFailure: true }),
      invalidatesTags: ['UserAttributes', 'AuthState'],
    }),
  }),
});

export const { useGetUserSiteAttributesQuery } = userAttributeApi;
