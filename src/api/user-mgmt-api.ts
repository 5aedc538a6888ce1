import type { UserProfile } from '../../schemas/entities/user-profile';
import { gatewayApi } from './gateway-api';

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

/** What proves the second factor: a current authenticator code, or one of the recovery codes. */
export type SecondFactor = { code: string } | { recoveryCode: string };

/** ADR 0008 POST user-mgmt/user/mfa/totp/setup: a pending secret, its otpauth URL and the QR code as SVG. */
export interface TotpSetup {
  secret: string;
  otpauthUrl: string;
  qrSvg: string;
}

/** ADR 0009: registration, resend and recovery answer this alike for every address (no account enumeration). */
export interface CheckEmailAnswer {
  status: 'CHECK_EMAIL';
}

/** ADR 0009 registration body: the registration form's data and, when the site captures cards at sign-up, the cards. */
export interface RegistrationRequest {
  siteId: string;
  locale: string;
  user: Readonly<Record<string, unknown>>;
  /** SPEC §3 "Registration item": pan with spaces removed. */
  cards?: readonly { pan: string }[];
}

/** ADR 0009 new-password payload of reset, change and compromised-password calls. */
export interface NewPassword {
  password: string;
  confirm_password: string;
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
      query: ({ siteId, channel, purpose }) => ({
        url: 'user-mgmt/user/send-code',
        method: 'POST',
        data: { channel, purpose },
        siteId,
        ownsAuthFailure: purpose === 'login',
      }),
    }),
    setUpTotp: build.mutation<TotpSetup, { siteId: string }>({
      query: ({ siteId }) => ({ url: 'user-mgmt/user/mfa/totp/setup', data: {}, siteId, ...TOTP_CALL }),
    }),
    /** Enrolling hands out the ten recovery codes, shown once (docs/decisions/0021-recovery-codes-and-account-notices.md). */
    enrollTotp: build.mutation<{ recoveryCodes: string[] }, { siteId: string; code: string }>({
      query: ({ siteId, code }) => ({ url: 'user-mgmt/user/mfa/totp/enroll', data: { code }, siteId, ...TOTP_CALL }),
      invalidatesTags: ['Profile', 'RecoveryCodes'],
    }),
    /** An authenticator code, or a recovery code when the phone is lost. */
    unenrollTotp: build.mutation<unknown, { siteId: string } & SecondFactor>({
      query: ({ siteId, ...proof }) => ({ url: 'user-mgmt/user/mfa/totp/unenroll', data: proof, siteId, ...TOTP_CALL }),
      invalidatesTags: ['Profile', 'RecoveryCodes'],
    }),
    recoveryCodesLeft: build.query<{ remaining: number }, { siteId: string }>({
      query: ({ siteId }) => ({ url: 'user-mgmt/user/mfa/recovery-codes', siteId }),
      providesTags: ['RecoveryCodes'],
    }),
    /** New recovery codes void the old ones; asked with a second factor. */
    renewRecoveryCodes: build.mutation<{ recoveryCodes: string[] }, { siteId: string } & SecondFactor>({
      query: ({ siteId, ...proof }) => ({ url: 'user-mgmt/user/mfa/recovery-codes', data: proof, siteId, ...TOTP_CALL }),
      invalidatesTags: ['RecoveryCodes'],
    }),
    /** ADR 0009 POST user-mgmt/user/registration → 202 CHECK_EMAIL; §7 the captcha token goes along (X-HCAPTCHA-TOKEN). */
    register: build.mutation<CheckEmailAnswer, RegistrationRequest>({
      query: ({ siteId, locale, user, cards }) => ({
        url: 'user-mgmt/user/registration',
        method: 'POST',
        data: { siteId, locale, user, ...(cards !== undefined ? { cards } : {}) },
        siteId,
        captcha: true,
      }),
    }),
    /** ADR 0009 POST user-mgmt/user/activate-token { token } → ACTIVATED; 400 TOKEN_INVALID or TOKEN_EXPIRED. */
    activateAccount: build.mutation<{ status: 'ACTIVATED' }, { siteId: string; token: string }>({
      query: ({ siteId, token }) => ({ url: 'user-mgmt/user/activate-token', method: 'POST', data: { token }, siteId }),
      invalidatesTags: ['AuthState', 'Profile'],
    }),
    /** ADR 0009 POST user-mgmt/user/activation-email → always CHECK_EMAIL. */
    resendActivation: build.mutation<CheckEmailAnswer, { siteId: string; locale: string; email: string }>({
      query: ({ siteId, locale, email }) => ({ url: 'user-mgmt/user/activation-email', method: 'POST', data: { email, siteId, locale }, siteId }),
    }),
    /** ADR 0009 POST user-mgmt/user/send-passcode (recovery) → always CHECK_EMAIL; `channel` only in the step-by-step variant. */
    sendRecoveryPasscode: build.mutation<CheckEmailAnswer, { siteId: string; locale: string; email: string; channel?: PasscodeChannel }>({
      query: ({ siteId, locale, email, channel }) => ({
        url: 'user-mgmt/user/send-passcode',
        method: 'POST',
        data: { email, siteId, locale, ...(channel !== undefined ? { channel } : {}) },
        siteId,
      }),
    }),
    /** ADR 0009 POST user-mgmt/user/find-code { email, passcode } → CODE_OK; 400 PASSCODE_INVALID { attemptsLeft }. */
    checkRecoveryCode: build.mutation<{ status: 'CODE_OK' }, { siteId: string; email: string; passcode: string }>({
      query: ({ siteId, email, passcode }) => ({ url: 'user-mgmt/user/find-code', method: 'POST', data: { email, passcode }, siteId }),
    }),
    /** ADR 0009 POST user-mgmt/user/change-password-from-passcode; success revokes every session of the user. */
    resetPassword: build.mutation<unknown, { siteId: string; email: string; passcode: string } & NewPassword>({
      query: ({ siteId, ...body }) => ({ url: 'user-mgmt/user/change-password-from-passcode', method: 'POST', data: body, siteId }),
    }),
    /** ADR 0009 POST user-mgmt/user/change-password (signed in); §8 a 401 here is not a trip to sign-in. */
    changePassword: build.mutation<unknown, { siteId: string; currentPassword: string } & NewPassword>({
      query: ({ siteId, ...body }) => ({ url: 'user-mgmt/user/change-password', method: 'POST', data: body, siteId }),
    }),
    /** ADR 0009 POST user-mgmt/user/vba/compromised-password: a new password after a sign-in with a listed one; the session is kept. */
    replaceCompromisedPassword: build.mutation<unknown, { siteId: string } & NewPassword>({
      query: ({ siteId, ...body }) => ({ url: 'user-mgmt/user/vba/compromised-password', method: 'POST', data: body, siteId }),
      // The profile fetched while the gateway held the account was refused (null); it is there now.
      invalidatesTags: ['Profile'],
    }),
    /** §7/ADR 0010 POST user-mgmt/user/update, empty body: copies the site's global profile fields into the profile, which it answers. */
    updateProfile: build.mutation<UserProfile, { siteId: string; concierge: boolean }>({
      query: ({ siteId, concierge }) => ({ url: concierge ? 'user-mgmt/user/concierge/update' : 'user-mgmt/user/update', method: 'POST', siteId }),
      invalidatesTags: ['Profile'],
    }),
    /**
     * §7/ADR 0009 POST user-mgmt/user/remove-account with the proof of presence: the current password,
     * or for an account without one (SSO) the passcode send-code mailed; the gateway clears every auth cookie.
     */
    removeAccount: build.mutation<unknown, { siteId: string } & ({ password: string } | { passcode: string })>({
      query: ({ siteId, ...proof }) => ({ url: 'user-mgmt/user/remove-account', method: 'POST', data: proof, siteId }),
    }),
  }),
});

export const {
  useGetProfileQuery,
  useGetPreferenceDetailsQuery,
  useSendCodeMutation,
  useSetUpTotpMutation,
  useEnrollTotpMutation,
  useUnenrollTotpMutation,
  useRecoveryCodesLeftQuery,
  useRenewRecoveryCodesMutation,
  useRegisterMutation,
  useActivateAccountMutation,
  useResendActivationMutation,
  useSendRecoveryPasscodeMutation,
  useCheckRecoveryCodeMutation,
  useResetPasswordMutation,
  useChangePasswordMutation,
  useReplaceCompromisedPasswordMutation,
  useRemoveAccountMutation,
  useUpdateProfileMutation,
} = userMgmtApi;
