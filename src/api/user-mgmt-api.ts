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

/** SPEC §3 "notification info", ADR 0008: where a passcode can go, both masked; `phone` null when none. */
export interface NotificationInfo {
  email: string | null;
  phone: string | null;
}

/** ADR 0008 send-code channels and purposes. */
export type PasscodeChannel = 'email' | 'sms';
export type PasscodePurpose = 'login' | 'otp-check';

/** ADR 0008 POST user-mgmt/user/mfa/totp/setup: a pending secret, its otpauth URL and the QR code as SVG. */
export interface TotpSetup {
  secret: string;
  otpauthUrl: string;
  qrSvg: string;
}

/** ADR 0008: TOTP calls answer 401 for a wrong code; the screen shows it rather than §8 signing the user out. */
const TOTP_CALL = { method: 'POST', ownsAuthFailure: true } as const;

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
    /**
     * §7 POST user-mgmt/user/get-preference-details { primaryUserIdentifier, siteId }. A refusal (no
     * pending sign-in, ADR 0008) belongs to the caller: the route guard sends the visitor back.
     */
    getPreferenceDetails: build.query<NotificationInfo, { siteId: string; primaryUserIdentifier: string }>({
      query: ({ siteId, primaryUserIdentifier }) => ({
        url: 'user-mgmt/user/get-preference-details',
        method: 'POST',
        data: { primaryUserIdentifier, siteId },
        siteId,
        ownsAuthFailure: true,
      }),
    }),
    /** ADR 0008 POST user-mgmt/user/send-code { channel, purpose } → 204; a new code replaces the last. */
    sendCode: build.mutation<unknown, { siteId: string; channel: PasscodeChannel; purpose: PasscodePurpose }>({
      query: ({ siteId, channel, purpose }) => ({ url: 'user-mgmt/user/send-code', method: 'POST', data: { channel, purpose }, siteId, ownsAuthFailure: purpose === 'login' }),
    }),
    setUpTotp: build.mutation<TotpSetup, { siteId: string }>({
      query: ({ siteId }) => ({ url: 'user-mgmt/user/mfa/totp/setup', data: {}, siteId, ...TOTP_CALL }),
    }),
    enrollTotp: build.mutation<unknown, { siteId: string; code: string }>({
      query: ({ siteId, code }) => ({ url: 'user-mgmt/user/mfa/totp/enroll', data: { code }, siteId, ...TOTP_CALL }),
      invalidatesTags: ['Profile'],
    }),
    unenrollTotp: build.mutation<unknown, { siteId: string; code: string }>({
      query: ({ siteId, code }) => ({ url: 'user-mgmt/user/mfa/totp/unenroll', data: { code }, siteId, ...TOTP_CALL }),
      invalidatesTags: ['Profile'],
    }),
  }),
});

export const { useGetProfileQuery, useGetPreferenceDetailsQuery, useSendCodeMutation, useSetUpTotpMutation, useEnrollTotpMutation, useUnenrollTotpMutation } = userMgmtApi;
