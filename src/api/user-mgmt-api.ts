import type {
  ACTIVATE_TOKEN_BODY,
  ACTIVATION_EMAIL_BODY,
  CHANGE_PASSWORD_BODY,
  COMPROMISED_PASSWORD_BODY,
  FIND_CODE_BODY,
  PASSWORD_FROM_PASSCODE_BODY,
  PREFERENCE_DETAILS_BODY,
  REGISTRATION_BODY,
  SECOND_FACTOR_BODY,
  SECURE_ACCOUNT_BODY,
  SEND_CODE_BODY,
  SEND_PASSCODE_BODY,
  TOTP_CODE_BODY,
} from '../../schemas/api/request-schemas';
import type {
  ACCOUNT_SECURED_ANSWER,
  ACTIVATED_ANSWER,
  CHECK_EMAIL_ANSWER,
  CODE_OK_ANSWER,
  DELETED_ANSWER,
  PASSWORD_CHANGED_ANSWER,
  PREFERENCE_DETAILS_ANSWER,
  BACKUP_CODES_ANSWER,
  BACKUP_CODES_LEFT_ANSWER,
  TOTP_ENROLL_ANSWER,
  TOTP_SETUP_ANSWER,
  TOTP_UNENROLL_ANSWER,
} from '../../schemas/api/response-schemas';
import type { SchemaType } from '../../schemas/api/schema-type';
import type { UserProfile } from '../../schemas/entities/user-profile';
import { gatewayApi } from './gateway-api';

export interface ProfileRequest {
  siteId: string;
  /** §6: a support agent's own endpoint. */
  concierge: boolean;
}

/** SPEC §3 "notification info", ADR 0008: where a passcode can go, both masked; `phone` null when none. */
export type NotificationInfo = SchemaType<typeof PREFERENCE_DETAILS_ANSWER>;

/** ADR 0008 send-code channels. */
export type PasscodeChannel = SchemaType<typeof SEND_CODE_BODY>['channel'];

/** What proves the second factor: a current authenticator code, or one of the backup codes. */
export type SecondFactor = SchemaType<typeof SECOND_FACTOR_BODY>;

/** ADR 0008 POST user-mgmt/user/mfa/totp/setup: a pending secret, its otpauth URL and the QR code as SVG. */
export type TotpSetup = SchemaType<typeof TOTP_SETUP_ANSWER>;

/** ADR 0009: registration, resend and recovery answer this alike for every address (no account enumeration). */
type CheckEmailAnswer = SchemaType<typeof CHECK_EMAIL_ANSWER>;

type PasswordChangedAnswer = SchemaType<typeof PASSWORD_CHANGED_ANSWER>;

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
    getPreferenceDetails: build.query<NotificationInfo, SchemaType<typeof PREFERENCE_DETAILS_BODY>>({
      query: ({ siteId, primaryUserIdentifier }) => ({
        url: 'user-mgmt/user/get-preference-details',
        method: 'POST',
        data: { primaryUserIdentifier, siteId } satisfies SchemaType<typeof PREFERENCE_DETAILS_BODY>,
        siteId,
        ownsAuthFailure: true,
      }),
    }),
    /** ADR 0008 POST user-mgmt/user/send-code { channel, purpose } → 204; a new code replaces the last. */
    sendCode: build.mutation<unknown, { siteId: string } & SchemaType<typeof SEND_CODE_BODY>>({
      query: ({ siteId, channel, purpose }) => ({
        url: 'user-mgmt/user/send-code',
        method: 'POST',
        data: { channel, purpose } satisfies SchemaType<typeof SEND_CODE_BODY>,
        siteId,
        ownsAuthFailure: purpose === 'login',
      }),
    }),
    setUpTotp: build.mutation<TotpSetup, { siteId: string }>({
      query: ({ siteId }) => ({ url: 'user-mgmt/user/mfa/totp/setup', data: {}, siteId, ...TOTP_CALL }),
    }),
    /** Enrolling hands out the ten backup codes, shown once (docs/decisions/0021-backup-codes-and-account-notices.md). */
    enrollTotp: build.mutation<SchemaType<typeof TOTP_ENROLL_ANSWER>, { siteId: string } & SchemaType<typeof TOTP_CODE_BODY>>({
      query: ({ siteId, ...body }) => ({ url: 'user-mgmt/user/mfa/totp/enroll', data: body, siteId, ...TOTP_CALL }),
      invalidatesTags: ['Profile', 'BackupCodes'],
    }),
    /** An authenticator code, or a backup code when the phone is lost. */
    unenrollTotp: build.mutation<SchemaType<typeof TOTP_UNENROLL_ANSWER>, { siteId: string } & SecondFactor>({
      query: ({ siteId, ...proof }) => ({ url: 'user-mgmt/user/mfa/totp/unenroll', data: proof, siteId, ...TOTP_CALL }),
      invalidatesTags: ['Profile', 'BackupCodes'],
    }),
    backupCodesLeft: build.query<SchemaType<typeof BACKUP_CODES_LEFT_ANSWER>, { siteId: string }>({
      query: ({ siteId }) => ({ url: 'user-mgmt/user/mfa/backup-codes', siteId }),
      providesTags: ['BackupCodes'],
    }),
    /** New backup codes void the old ones; asked with a second factor. */
    renewBackupCodes: build.mutation<SchemaType<typeof BACKUP_CODES_ANSWER>, { siteId: string } & SecondFactor>({
      query: ({ siteId, ...proof }) => ({ url: 'user-mgmt/user/mfa/backup-codes', data: proof, siteId, ...TOTP_CALL }),
      invalidatesTags: ['BackupCodes'],
    }),
    /** ADR 0009 POST user-mgmt/user/registration → 202 CHECK_EMAIL; §7 the captcha token goes along (X-HCAPTCHA-TOKEN). */
    register: build.mutation<CheckEmailAnswer, SchemaType<typeof REGISTRATION_BODY>>({
      query: (body) => ({
        url: 'user-mgmt/user/registration',
        method: 'POST',
        data: body,
        siteId: body.siteId,
        captcha: true,
      }),
    }),
    /** ADR 0009 POST user-mgmt/user/activate-token { token } → ACTIVATED; 400 TOKEN_INVALID or TOKEN_EXPIRED. */
    activateAccount: build.mutation<SchemaType<typeof ACTIVATED_ANSWER>, { siteId: string } & SchemaType<typeof ACTIVATE_TOKEN_BODY>>({
      query: ({ siteId, ...body }) => ({ url: 'user-mgmt/user/activate-token', method: 'POST', data: body, siteId }),
      invalidatesTags: ['AuthState', 'Profile'],
    }),
    /**
     * ADR 0021 "Telling the holder": POST user-mgmt/user/secure-account { token } → ACCOUNT_SECURED with the address
     * for the recovery form (null for a texted link); 400 SECURE_ACCOUNT_LINK_INVALID for an unknown, used or expired one.
     */
    secureAccount: build.mutation<SchemaType<typeof ACCOUNT_SECURED_ANSWER>, { siteId: string } & SchemaType<typeof SECURE_ACCOUNT_BODY>>({
      query: ({ siteId, ...body }) => ({ url: 'user-mgmt/user/secure-account', method: 'POST', data: body, siteId }),
    }),
    /** ADR 0009 POST user-mgmt/user/activation-email → always CHECK_EMAIL. */
    resendActivation: build.mutation<CheckEmailAnswer, SchemaType<typeof ACTIVATION_EMAIL_BODY>>({
      query: ({ siteId, locale, email }) => ({
        url: 'user-mgmt/user/activation-email',
        method: 'POST',
        data: { email, siteId, locale } satisfies SchemaType<typeof ACTIVATION_EMAIL_BODY>,
        siteId,
      }),
    }),
    /** ADR 0009 POST user-mgmt/user/send-passcode (recovery) → always CHECK_EMAIL; `channel` only in the step-by-step variant. */
    sendRecoveryPasscode: build.mutation<CheckEmailAnswer, SchemaType<typeof SEND_PASSCODE_BODY>>({
      query: ({ siteId, locale, email, channel }) => ({
        url: 'user-mgmt/user/send-passcode',
        method: 'POST',
        data: { email, siteId, locale, ...(channel !== undefined ? { channel } : {}) } satisfies SchemaType<typeof SEND_PASSCODE_BODY>,
        siteId,
      }),
    }),
    /**
     * ADR 0009 POST user-mgmt/user/find-code { email, passcode } → CODE_OK; 400 PASSCODE_INVALID { attemptsLeft }; 401 OTP_SPENT
     * once the attempts are used up (ADR 0008), which the screen shows rather than §8 sending the person to sign-in.
     */
    checkRecoveryCode: build.mutation<SchemaType<typeof CODE_OK_ANSWER>, { siteId: string } & SchemaType<typeof FIND_CODE_BODY>>({
      query: ({ siteId, ...body }) => ({ url: 'user-mgmt/user/find-code', method: 'POST', data: body, siteId, ownsAuthFailure: true }),
    }),
    /** ADR 0009 POST user-mgmt/user/change-password-from-passcode; success revokes every session of the user. A spent code is 401 OTP_SPENT, as for find-code. */
    resetPassword: build.mutation<PasswordChangedAnswer, { siteId: string } & SchemaType<typeof PASSWORD_FROM_PASSCODE_BODY>>({
      query: ({ siteId, ...body }) => ({ url: 'user-mgmt/user/change-password-from-passcode', method: 'POST', data: body, siteId, ownsAuthFailure: true }),
    }),
    /** ADR 0009 POST user-mgmt/user/change-password (signed in); §8 a 401 here is not a trip to sign-in. */
    changePassword: build.mutation<PasswordChangedAnswer, { siteId: string } & SchemaType<typeof CHANGE_PASSWORD_BODY>>({
      query: ({ siteId, ...body }) => ({ url: 'user-mgmt/user/change-password', method: 'POST', data: body, siteId }),
    }),
    /** ADR 0009 POST user-mgmt/user/vba/compromised-password: a new password after a sign-in with a listed one; the session is kept. */
    replaceCompromisedPassword: build.mutation<PasswordChangedAnswer, { siteId: string } & SchemaType<typeof COMPROMISED_PASSWORD_BODY>>({
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
    removeAccount: build.mutation<SchemaType<typeof DELETED_ANSWER>, { siteId: string } & ({ password: string } | { passcode: string })>({
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
  useBackupCodesLeftQuery,
  useRenewBackupCodesMutation,
  useRegisterMutation,
  useActivateAccountMutation,
  useSecureAccountMutation,
  useResendActivationMutation,
  useSendRecoveryPasscodeMutation,
  useCheckRecoveryCodeMutation,
  useResetPasswordMutation,
  useChangePasswordMutation,
  useReplaceCompromisedPasswordMutation,
  useRemoveAccountMutation,
  useUpdateProfileMutation,
} = userMgmtApi;
