/**
 * SPEC §9 storage names the app reads or writes, and the local-storage keys of §7's tokens. The
 * gateway's own `SESSION` cookie is httpOnly (only the gateway sets and expires it).
 */
export const STORAGE = {
  /** Readable cookie `true` while signed in (§4 token type and background check). */
  authenticatedCookie: 'gmap_authenticated',
  /** Token-mode session cookie, cleared with the others on an authentication failure (§8). */
  sessionCookie: 'session',
  /** CONCIERGE or CARDHOLDER, expiring at the token's exp (§4). */
  userTypeCookie: 'gmap_user_type',
  /** The concierge's third session cookie (§8 "plus a third in concierge mode"). */
  supportDetailsCookie: 'gmap_support_details',
  /** Local storage: the trusted OTP check's expiry, epoch seconds (§4, §9: 15 minutes). */
  otpExpiry: 'otp_expiry',
  /** Local storage: now + expires_in, epoch seconds, only when session extension is on (§9). */
  sessionExpiry: 'session_expiry',
  /** Local storage keys of §7 "Tokens are kept in local storage under keys for pre-auth and access tokens". */
  preAuthToken: 'preauth_token',
  accessToken: 'access_token',
  refreshToken: 'refresh_token',
  /** Session storage: the validated returnurl (§2). */
  returnUrl: 'returnurl',
  /** Session storage: the registration's non-secret fields between registration and add-pan (§2). */
  registrationDraft: 'registration_draft',
  /** Session storage: edit-profile's non-secret fields typed when the session ended, until the same person signs in (§2). */
  profileDraft: 'profile_draft',
  /** Session storage: where each multi-step flow (recovery, sign-in passcode, …) stands, never a secret (ADR 0019 "Flow steps"). */
  flowSteps: 'flow_steps',
  /** Session storage: the site a sign-out just left, so the sign-in page (redirect-sso on SSO sites) says the holder is signed out (auth/signed-out-mark.ts). */
  signedOut: 'signed_out',
} as const;

/** §7/§8: the XSRF cookie and the header that echoes it. */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';
