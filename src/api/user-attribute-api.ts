import type { CHANGED_ATTRIBUTES_BODY, SITE_OBJECT_SCHEMA } from '../../schemas/api/request-schemas';
import type { BACKGROUND_CHECK_ANSWER, USER_SITE_RECORD_ANSWER, USER_SITES_ANSWER } from '../../schemas/api/response-schemas';
import type { SchemaType } from '../../schemas/api/schema-type';
import { gatewayApi, type GatewayError } from './gateway-api';

/** SPEC §3 "User site attributes by key"; values are strings or nested settings (opt-ins, address). */
export type UserSiteAttributes = Readonly<Record<string, unknown>>;

/** ADR 0010: a user's site object as read and saved whole; `version` is bumped by every save. */
export type UserSiteRecord = SchemaType<typeof USER_SITE_RECORD_ANSWER>;

/** ADR 0010 409 ATTRIBUTES_CHANGED: which keys another save changed, and the stored object now. */
export interface AttributesConflict {
  fields: Readonly<Record<string, string>>;
  current: { attributes: UserSiteAttributes; version: number };
}

/** The conflict a 409 ATTRIBUTES_CHANGED answer carries (in GatewayError `details`), else null. */
export function attributesConflictOf(error: unknown): AttributesConflict | null {
  const failure = error as Partial<GatewayError> | undefined;
  if (failure?.status !== 409 || failure.code !== 'ATTRIBUTES_CHANGED') return null;
  const current = failure.details?.current as { attributes?: AttributesConflict['current']['attributes'] | null; version?: unknown } | undefined;
  if (typeof current?.version !== 'number' || typeof current.attributes !== 'object' || current.attributes === null) return null;
  return { fields: failure.fields ?? {}, current: { attributes: current.attributes, version: current.version } };
}

export interface UserAttributesRequest {
  siteId: string;
  /** §7: a support agent reads user-attribute/concierge/user/{siteId}. */
  concierge: boolean;
}

/** SPEC §7 user-attribute service (assets are in cards-api). */
export const userAttributeApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    /**
     * GET user-attribute/user/background/{siteId} → passesBackgroundCheck (§4). The auth machine
     * turns every error into its own state, so §8's authentication-failure rule stays out of it.
     */
    getBackgroundCheck: build.query<SchemaType<typeof BACKGROUND_CHECK_ANSWER>, string>({
      query: (siteId) => ({ url: `user-attribute/user/background/${encodeURIComponent(siteId)}`, siteId, ownsAuthFailure: true }),
      providesTags: ['AuthState'],
    }),
    /**
     * GET user-attribute/user/{siteId} (a support agent: user-attribute/concierge/user/{siteId}, §7):
     * the user's site object with the version a save starts from (ADR 0010); a user with no row for
     * the site has no attributes and version 0.
     */
    getUserSiteRecord: build.query<UserSiteRecord, UserAttributesRequest>({
      query: ({ siteId, concierge }) => ({
        url: `${concierge ? 'user-attribute/concierge/user' : 'user-attribute/user'}/${encodeURIComponent(siteId)}`,
        siteId,
      }),
      transformResponse: (answer: SchemaType<typeof USER_SITES_ANSWER>, _meta, { siteId }) =>
        answer.userSites[siteId] ?? { siteId, attributes: {}, version: 0 },
      providesTags: ['UserAttributes'],
    }),
    /**
     * ADR 0010 POST user-attribute/v2/user/{siteId} { attributes, baseVersion }: only the keys sent are
     * merged (null removes one), so two tabs editing different fields both keep their changes; a key
     * changed by another save since `baseVersion` answers 409 ATTRIBUTES_CHANGED and nothing is written.
     */
    saveChangedAttributes: build.mutation<
      UserSiteRecord,
      // ownsAuthFailure: the caller keeps what was typed and says the session ended, instead of §8's reload to sign-in.
      { siteId: string; attributes: UserSiteAttributes; baseVersion: number; concierge: boolean; ownsAuthFailure?: boolean }
    >({
      query: ({ siteId, attributes, baseVersion, concierge, ownsAuthFailure }) => ({
        // ADR 0014 "concierge preferences": an agent saves for the card holder through the concierge twin.
        url: `${concierge ? 'user-attribute/concierge/v2/user' : 'user-attribute/v2/user'}/${encodeURIComponent(siteId)}`,
        method: 'POST',
        data: { attributes, baseVersion } satisfies SchemaType<typeof CHANGED_ATTRIBUTES_BODY>,
        siteId,
        ...(ownsAuthFailure === true ? { ownsAuthFailure } : {}),
      }),
      // A conflict changed the stored object too: every reader loads it again.
      invalidatesTags: (_result, error) => (error === undefined || error.status === 409 ? ['UserAttributes'] : []),
    }),
    /** ADR 0010 POST user-attribute/user/attribute/{siteId}: the whole user site object (never vopUsers) at the version it was read. */
    saveUserSiteRecord: build.mutation<UserSiteRecord, { record: UserSiteRecord; concierge: boolean }>({
      query: ({ record, concierge }) => ({
        url: `${concierge ? 'user-attribute/concierge/user/attribute' : 'user-attribute/user/attribute'}/${encodeURIComponent(record.siteId)}`,
        method: 'POST',
        data: record satisfies SchemaType<typeof SITE_OBJECT_SCHEMA>,
        siteId: record.siteId,
      }),
      invalidatesTags: (_result, error) => (error === undefined || error.status === 409 ? ['UserAttributes'] : []),
    }),
    /** POST user-attribute/v2/user/{siteId} { attributes }: §4 saves the site locale this way on USER_NOT_FOUND. */
    saveUserSiteAttributes: build.mutation<unknown, { siteId: string; attributes: UserSiteAttributes }>({
      query: ({ siteId, attributes }) => ({
        url: `user-attribute/v2/user/${encodeURIComponent(siteId)}`,
        method: 'POST',
        data: { attributes } satisfies SchemaType<typeof CHANGED_ATTRIBUTES_BODY>,
        siteId,
        ownsAuthFailure: true,
      }),
      invalidatesTags: ['UserAttributes', 'AuthState'],
    }),
  }),
});

export const { useGetUserSiteRecordQuery, useSaveChangedAttributesMutation, useSaveUserSiteRecordMutation } = userAttributeApi;
