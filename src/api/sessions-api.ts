import type { HOLDER_SESSIONS_ANSWER, REVOKED_ANSWER, SESSIONS_ENDED_ANSWER } from '../../schemas/api/response-schemas';
import type { SchemaType } from '../../schemas/api/schema-type';
import { gatewayApi } from './gateway-api';

/** ADR 0025 "Sessions the holder can see": the account's live sessions on every site, and its trusted devices. */
export type HolderSessions = SchemaType<typeof HOLDER_SESSIONS_ANSWER>;
export type HolderSession = HolderSessions['sessions'][number];
export type HolderTrustedDevice = HolderSessions['trustedDevices'][number];
/** What a device is named by: a known browser and system, each null when the sign-in's User-Agent named none. */
export type DeviceNames = HolderSession['device'];

/**
 * The holder's signed-in devices (docs/decisions/0025-fresh-proof.md "Sessions the holder can see"). Ending one, or
 * all the others, loads the list again; so does a sign-in (AuthState), which is a session of its own.
 */
export const sessionsApi = gatewayApi.enhanceEndpoints({ addTagTypes: ['Sessions'] }).injectEndpoints({
  endpoints: (build) => ({
    /** GET user-mgmt/user/sessions. */
    getSessions: build.query<HolderSessions, { siteId: string }>({
      query: ({ siteId }) => ({ url: 'user-mgmt/user/sessions', siteId }),
      providesTags: ['Sessions', 'AuthState'],
    }),
    /** POST user-mgmt/user/sessions/{id}/revoke, empty body: 404 SESSION_NOT_FOUND once it has ended anyway. */
    revokeSession: build.mutation<SchemaType<typeof REVOKED_ANSWER>, { siteId: string; id: string }>({
      query: ({ siteId, id }) => ({ url: `user-mgmt/user/sessions/${encodeURIComponent(id)}/revoke`, method: 'POST', siteId }),
      // Also after a refusal: a session that ended meanwhile is gone from the list too.
      invalidatesTags: ['Sessions'],
    }),
    /** POST user-mgmt/user/sessions/revoke-all, empty body: "sign out everywhere else". */
    revokeOtherSessions: build.mutation<SchemaType<typeof SESSIONS_ENDED_ANSWER>, { siteId: string }>({
      query: ({ siteId }) => ({ url: 'user-mgmt/user/sessions/revoke-all', method: 'POST', siteId }),
      invalidatesTags: ['Sessions'],
    }),
  }),
});

export const { useGetSessionsQuery, useRevokeSessionMutation, useRevokeOtherSessionsMutation } = sessionsApi;
