import type { OTP_VERIFY_BODY } from '../../schemas/api/request-schemas';
import type { OIDC_LOGOUT_ANSWER, OTP_VERIFY_ANSWER, REVOKED_ANSWER, SIGN_IN_ANSWER, SIGNED_IN_WITH_TOKENS_ANSWER } from '../../schemas/api/response-schemas';
import type { SchemaType } from '../../schemas/api/schema-type';
import { gatewayApi, type GatewayRequest } from './gateway-api';

/** ADR 0008: where a second-step passcode came from (`otp_type`). */
export type OtpType = SchemaType<typeof OTP_VERIFY_BODY>['otp_type'];

/** SPEC §3 login payload; `otp`, `otpType` and `trustDevice` only on the passcode step, `vbaToken` only on the breached-password one. */
export interface LoginPayload {
  siteId: string;
  locale: string;
  username: string;
  password: string;
  otp?: string;
  otpType?: OtpType;
  /** A backup code in place of the authenticator code (phone lost). */
  backupCode?: string;
  /** ADR 0009 "Breached passwords": the passcode mailed after 401 VBA_TOKEN_REQUIRED, sent as `vba_token`. */
  vbaToken?: string;
  trustDevice?: boolean;
}

/**
 * SPEC §3/§7, ADR 0008: the multipart login payload with `init_login=true` (client-server mode).
 * Optional parts are left out rather than sent empty.
 */
export function loginFormData(payload: LoginPayload): FormData {
  const form = new FormData();
  form.set('username', payload.username);
  form.set('password', payload.password);
  form.set('grant_type', 'password');
  form.set('siteId', payload.siteId);
  form.set('locale', payload.locale);
  form.set('init_login', 'true');
  if (payload.otp !== undefined) form.set('otp', payload.otp);
  if (payload.otpType !== undefined) form.set('otp_type', payload.otpType);
  if (payload.backupCode !== undefined) form.set('backup_code', payload.backupCode);
  if (payload.vbaToken !== undefined) form.set('vba_token', payload.vbaToken);
  if (payload.trustDevice !== undefined) form.set('trust_device', String(payload.trustDevice));
  return form;
}

/** §4/§7 sign-out, either call: optional ?refresh_token=, a text body of null; 200 even when already signed out. */
function signOutRequest(url: string, siteId: string, refreshToken: string | null): GatewayRequest {
  return {
    url,
    method: 'POST',
    ...(refreshToken !== null ? { params: { refresh_token: refreshToken } } : {}),
    data: 'null',
    headers: { 'Content-Type': 'text/plain' },
    siteId,
    ownsAuthFailure: true,
  };
}

/** SPEC §7 user-auth service. */
export const userAuthApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    /** §7: POST user-auth/oauth/token, grant_type refresh_token with refresh_token and siteId (multipart). */
    refreshToken: build.mutation<SchemaType<typeof SIGNED_IN_WITH_TOKENS_ANSWER>, { siteId: string; refreshToken: string }>({
      query: ({ siteId, refreshToken }) => {
        const form = new FormData();
        form.set('grant_type', 'refresh_token');
        form.set('refresh_token', refreshToken);
        form.set('siteId', siteId);
        return { url: 'user-auth/oauth/token', method: 'POST', data: form, siteId, ownsAuthFailure: true };
      },
      invalidatesTags: ['AuthState', 'Profile', 'UserAttributes', 'Cards'],
    }),
    /**
     * §7 POST user-auth/login. The sign-in flow owns every answer (ADR 0008 codes): a 401 here is
     * the next step or a refusal shown on the form, never §8's trip back to the sign-in page. The
     * session itself is in the gateway's cookies; `passwordCompromised` (ADR 0009) sends the person
     * to compromised-credentials.
     */
    logIn: build.mutation<SchemaType<typeof SIGN_IN_ANSWER>, LoginPayload>({
      query: (payload) => ({ url: 'user-auth/login', method: 'POST', data: loginFormData(payload), siteId: payload.siteId, ownsAuthFailure: true }),
      invalidatesTags: ['AuthState', 'Profile', 'UserAttributes', 'Cards'],
    }),
    /** §4/§7 POST user-auth/tokens/revoke, optional ?refresh_token=, text body null; 200 even when already signed out. */
    revokeTokens: build.mutation<SchemaType<typeof REVOKED_ANSWER>, { siteId: string; refreshToken: string | null }>({
      query: ({ siteId, refreshToken }) => signOutRequest('user-auth/tokens/revoke', siteId, refreshToken),
    }),
    /**
     * §7 "OIDC variant POST {app base}/logout" on an SSO site: signs out like revokeTokens and answers
     * where the identity provider ends its own session (docs/decisions/0022-declared-calls.md).
     */
    oidcLogout: build.mutation<SchemaType<typeof OIDC_LOGOUT_ANSWER>, { siteId: string; refreshToken: string | null }>({
      query: ({ siteId, refreshToken }) => signOutRequest('logout', siteId, refreshToken),
    }),
    /**
     * ADR 0008 POST user-auth/otp/verify { otp, otp_type } (signed-in re-check) → { verifiedUntil }. A wrong,
     * expired or spent code answers 401 OTP_INVALID / OTP_EXPIRED / OTP_SPENT { attemptsLeft }: the caller shows it next to
     * the code (the otp-check screen, the "Confirm it's you" dialog), so §8's trip to sign-in stays out of
     * it; a caller that sees any other 401 ends the session itself (auth/fresh-proof.ts endsTheSession).
     */
    verifyOtp: build.mutation<SchemaType<typeof OTP_VERIFY_ANSWER>, { siteId: string; otp: string; otpType: OtpType }>({
      query: ({ siteId, otp, otpType }) => ({
        url: 'user-auth/otp/verify',
        method: 'POST',
        data: { otp, otp_type: otpType } satisfies SchemaType<typeof OTP_VERIFY_BODY>,
        siteId,
        ownsAuthFailure: true,
      }),
    }),
  }),
});

export const { useLogInMutation, useVerifyOtpMutation } = userAuthApi;
