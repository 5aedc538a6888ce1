/**
 * The answers of the gateway's routes as JSON Schema: Fastify serialises each route's answer with its schema
 * (gateway/http/answer-schemas.ts), the OpenAPI document publishes them and, through `SchemaType`, they are the
 * app's endpoint types (ADR 0023 "Answers serialised with the contract"). The serialiser drops a member a schema
 * does not declare and coerces values to the declared type, so each schema lists every member its route sends,
 * or says `additionalProperties: true`; in test mode the gateway refuses an answer its schema would change.
 */
import { ALIAS_TYPES } from '../account/user-alias';
import { CASHBACK_STATUSES } from '../entities/cashback-statement';
import { BROWSERS, OPERATING_SYSTEMS } from '../entities/signed-in-device';
import { ENROLLED_ASSET_SCHEMA } from './enrolled-asset';

const STRING = { type: 'string' } as const;
const NULLABLE_STRING = { type: ['string', 'null'] } as const;

/** An answer `{ status: <one of these> }`; the statuses stay literal types, for the app's `SchemaType` (ADR 0023). */
export function statusAnswer<const Statuses extends readonly string[]>(...statuses: Statuses) {
  return { type: 'object', required: ['status'], properties: { status: { enum: statuses } } } as const;
}

/** ADR 0009: registration, resend and recovery answer this alike for every address (no account enumeration). */
export const CHECK_EMAIL_ANSWER = statusAnswer('CHECK_EMAIL');
/** ADR 0009: a password changed, by recovery passcode, by the signed-in person or after a breached-password sign-in. */
export const PASSWORD_CHANGED_ANSWER = statusAnswer('PASSWORD_CHANGED');
/** ADR 0009: the recovery passcode is right. */
export const CODE_OK_ANSWER = statusAnswer('CODE_OK');
/** ADR 0009: the activation link's token opened the account. */
export const ACTIVATED_ANSWER = statusAnswer('ACTIVATED');
/** ADR 0009: the account is removed. */
export const DELETED_ANSWER = statusAnswer('DELETED');

/**
 * ADR 0021 "Telling the holder": every session, refresh token and trusted device of the account has ended; `email` is
 * the account's address for the recovery form when the link was mailed to it, null when it was texted.
 */
export const ACCOUNT_SECURED_ANSWER = {
  type: 'object',
  required: ['status', 'email', 'undone'],
  properties: {
    status: { const: 'ACCOUNT_SECURED' },
    email: NULLABLE_STRING,
    /** ADR 0025 "A new phone stays provisional for 7 days": what "this wasn't me" put back. */
    undone: { type: 'array', items: { enum: ['phone', 'authenticator'] } },
  },
} as const;

export const ENROLLED_ASSETS_ANSWER = { type: 'array', items: ENROLLED_ASSET_SCHEMA } as const;

/** SPEC §3 "Validation response". */
export const CARD_VALIDATION_ANSWER = {
  type: 'object',
  required: ['eligible', 'productType'],
  properties: { eligible: { type: 'boolean' }, productType: NULLABLE_STRING },
} as const;

/** ADR 0008: a sign-in's answer; the tokens only to a call that asks for them in the body. */
export const SIGN_IN_ANSWER = {
  type: 'object',
  required: ['status', 'expires_in', 'user_type', 'mfaEnrollmentStatus'],
  properties: {
    status: { const: 'SIGNED_IN' },
    expires_in: { type: 'integer' },
    user_type: STRING,
    mfaEnrollmentStatus: STRING,
    access_token: STRING,
    refresh_token: STRING,
    token_type: { const: 'bearer' },
    // ADR 0009: present (true) only when the password is on the compromised list.
    passwordCompromised: { const: true },
    // The sign-in spent a backup code: how many the person has left.
    backupCodesLeft: { type: 'integer' },
  },
} as const;

/** SPEC §3 token response: a sign-in through `oauth/token` (password or refresh_token grant) answers the tokens too. */
export const SIGNED_IN_WITH_TOKENS_ANSWER = {
  ...SIGN_IN_ANSWER,
  required: [...SIGN_IN_ANSWER.required, 'access_token', 'refresh_token', 'token_type'],
} as const;

/** SPEC §7 pre-auth token: `oauth/token?preauth=true` with the client_credentials grant. */
export const PREAUTH_TOKEN_ANSWER = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in'],
  properties: { access_token: STRING, token_type: { const: 'bearer' }, expires_in: { type: 'integer' } },
} as const;

/** The answer of `oauth/token`: signed in with tokens, or the pre-auth token. */
export const TOKEN_ANSWER = { oneOf: [SIGNED_IN_WITH_TOKENS_ANSWER, PREAUTH_TOKEN_ANSWER] } as const;

/** ADR 0015: the finish of an SSO sign-in, ADR 0008's answer plus where the person was going. */
export const SSO_SIGN_IN_ANSWER = {
  ...SIGN_IN_ANSWER,
  required: [...SIGN_IN_ANSWER.required, 'lastVisitedPath'],
  properties: { ...SIGN_IN_ANSWER.properties, lastVisitedPath: NULLABLE_STRING },
} as const;

/** ADR 0008: a signed-in passcode re-check holds until this time (ISO 8601). */
export const OTP_VERIFY_ANSWER = { type: 'object', required: ['verifiedUntil'], properties: { verifiedUntil: STRING } } as const;

/** SPEC §3 "notification info", ADR 0008: where a passcode can go, both masked; `phone` null when none. */
export const PREFERENCE_DETAILS_ANSWER = { type: 'object', required: ['email', 'phone'], properties: { email: STRING, phone: NULLABLE_STRING } } as const;

/** ADR 0008: a pending authenticator secret, its otpauth URL and the QR code as SVG. */
export const TOTP_SETUP_ANSWER = {
  type: 'object',
  required: ['secret', 'otpauthUrl', 'qrSvg'],
  properties: { secret: STRING, otpauthUrl: STRING, qrSvg: STRING },
} as const;

const BACKUP_CODES = { type: 'array', items: STRING } as const;

/** ADR 0021: enrolling hands out the ten backup codes, shown once. */
export const TOTP_ENROLL_ANSWER = {
  type: 'object',
  required: ['mfaEnrollmentStatus', 'backupCodes'],
  properties: { mfaEnrollmentStatus: { const: 'ENROLLED' }, backupCodes: BACKUP_CODES },
} as const;

/** ADR 0008: the authenticator is removed. */
export const TOTP_UNENROLL_ANSWER = {
  type: 'object',
  required: ['mfaEnrollmentStatus'],
  properties: { mfaEnrollmentStatus: { const: 'NOT_ENROLLED' } },
} as const;

/** ADR 0021: new backup codes, the old ones void. */
export const BACKUP_CODES_ANSWER = { type: 'object', required: ['backupCodes'], properties: { backupCodes: BACKUP_CODES } } as const;

/** ADR 0021: how many backup codes are left. */
export const BACKUP_CODES_LEFT_ANSWER = { type: 'object', required: ['remaining'], properties: { remaining: { type: 'integer' } } } as const;

/** SPEC §3 "User profile"; schemas/entities/user-profile.ts `UserProfile` is its type. */
export const USER_PROFILE_ANSWER = {
  type: 'object',
  required: ['dob', 'email', 'firstName', 'lastName', 'title', 'userAccountStatus', 'primaryUserIdentifier', 'mfaEnrollmentStatus'],
  properties: {
    dob: NULLABLE_STRING,
    email: STRING,
    firstName: NULLABLE_STRING,
    lastName: NULLABLE_STRING,
    title: NULLABLE_STRING,
    userAccountStatus: STRING,
    primaryUserIdentifier: STRING,
    mfaEnrollmentStatus: STRING,
    gender: STRING,
  },
} as const;

/** SPEC §4: whether the signed-in person passes the site's background check. */
export const BACKGROUND_CHECK_ANSWER = {
  type: 'object',
  required: ['passesBackgroundCheck'],
  properties: { passesBackgroundCheck: { type: 'boolean' } },
} as const;

/** ADR 0010: a user's site object as read and saved whole; `version` is bumped by every save (0: never saved). */
export const USER_SITE_RECORD_ANSWER = {
  type: 'object',
  required: ['siteId', 'attributes', 'version'],
  properties: { siteId: STRING, attributes: { type: 'object', additionalProperties: true }, version: { type: 'integer' } },
} as const;

/** ADR 0010: `{ userSites: { [siteId]: user site object } }`. */
export const USER_SITES_ANSWER = {
  type: 'object',
  required: ['userSites'],
  properties: { userSites: { type: 'object', additionalProperties: USER_SITE_RECORD_ANSWER } },
} as const;

/** ADR 0013: the answer of both content calls; for all groups, keys are `group.key`. */
export const CONTENT_ANSWER = {
  type: 'object',
  required: ['siteId', 'locale', 'version', 'contentType', 'content'],
  properties: {
    siteId: STRING,
    locale: STRING,
    version: { enum: [2, 3] },
    contentType: STRING,
    content: { type: 'object', additionalProperties: STRING },
  },
} as const;

export const REVOKED_ANSWER = { type: 'object', required: ['revoked'], properties: { revoked: { const: true } } } as const;

/** ADR 0022: the OIDC logout's answer. */
export const OIDC_LOGOUT_ANSWER = {
  type: 'object',
  required: ['revoked', 'endSessionUrl'],
  // endSessionUrl: where the browser goes next to end the identity provider's session too; null when there is nowhere.
  properties: { revoked: { const: true }, endSessionUrl: NULLABLE_STRING },
} as const;

const CASHBACK_STATUS = { enum: [...CASHBACK_STATUSES] } as const;

/** ADR 0010 `GET my-cashback/{siteId}`: schemas/entities/cashback-statement.ts `CashbackStatement`. */
export const CASHBACK_STATEMENT_ANSWER = {
  type: 'object',
  required: ['siteId', 'lines', 'totals'],
  properties: {
    siteId: STRING,
    lines: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'assetId', 'lastFour', 'productType', 'merchant', 'date', 'amountMinor', 'currency', 'status'],
        properties: {
          id: STRING,
          assetId: NULLABLE_STRING,
          lastFour: STRING,
          productType: NULLABLE_STRING,
          merchant: STRING,
          date: STRING,
          amountMinor: { type: 'integer' },
          currency: STRING,
          status: CASHBACK_STATUS,
        },
      },
    },
    totals: {
      type: 'array',
      items: {
        type: 'object',
        required: ['currency', 'status', 'amountMinor', 'count'],
        properties: { currency: STRING, status: CASHBACK_STATUS, amountMinor: { type: 'integer' }, count: { type: 'integer' } },
      },
    },
  },
} as const;

/** ADR 0014: the display data of the card holder a support agent acts for; nothing secret (no e-mail, no card). */
export const ACTING_FOR_SCHEMA = {
  type: 'object',
  required: ['primaryUserIdentifier', 'firstName', 'lastName'],
  properties: { primaryUserIdentifier: STRING, firstName: NULLABLE_STRING, lastName: NULLABLE_STRING },
} as const;

/** ADR 0014: whom the agent acts for, or null. */
export const ACTING_FOR_ANSWER = {
  type: 'object',
  required: ['actingFor'],
  properties: { actingFor: { oneOf: [ACTING_FOR_SCHEMA, { type: 'null' }] } },
} as const;

/** ADR 0014: acting for someone answers whom. */
export const ACT_FOR_ANSWER = { type: 'object', required: ['actingFor'], properties: { actingFor: ACTING_FOR_SCHEMA } } as const;

/**
 * ADR 0022: the alias as stored, and whether it counts: a USERNAME always; an EMAIL only once the code mailed
 * to it came back (`proved: false` until then, for every address alike: "Proving an EMAIL alias").
 */
export const ALIAS_ANSWER = {
  type: 'object',
  required: ['alias', 'aliasType', 'proved'],
  properties: { alias: STRING, aliasType: { enum: [...ALIAS_TYPES] }, proved: { type: 'boolean' } },
} as const;

/** A site of the holder's account, by id and by the name its configuration gives it. */
const SITE_NAMED = { type: 'object', required: ['id', 'name'], properties: { id: STRING, name: STRING } } as const;

/** What a device is recognised by: one of the known browsers and systems, each null when the User-Agent named none. */
const DEVICE_NAMED = {
  type: 'object',
  required: ['browser', 'os'],
  properties: { browser: { enum: [...BROWSERS, null] }, os: { enum: [...OPERATING_SYSTEMS, null] } },
} as const;

/** ADR 0025 "A new phone is proved before it counts": the site's number waiting for its code, masked, or null. */
export const PHONE_PROOF_ANSWER = {
  type: 'object',
  required: ['pendingPhone'],
  properties: { pendingPhone: NULLABLE_STRING },
} as const;

/**
 * ADR 0025 "Sessions the holder can see": the account's live sessions on every site, the asking one first and marked
 * `current`, and the devices still trusted to skip the passcode. Each is named by a random id that is neither its
 * token nor the token's hash; `firstAddress` is the network part only. Times are ISO 8601.
 */
export const HOLDER_SESSIONS_ANSWER = {
  type: 'object',
  required: ['sessions', 'trustedDevices'],
  properties: {
    sessions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'site', 'device', 'firstAddress', 'createdAt', 'lastUsedAt', 'current'],
        properties: {
          id: STRING,
          site: SITE_NAMED,
          device: DEVICE_NAMED,
          firstAddress: NULLABLE_STRING,
          createdAt: STRING,
          lastUsedAt: STRING,
          current: { type: 'boolean' },
        },
      },
    },
    trustedDevices: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'site', 'device', 'createdAt', 'expiresAt', 'current'],
        properties: { id: STRING, site: SITE_NAMED, device: DEVICE_NAMED, createdAt: STRING, expiresAt: STRING, current: { type: 'boolean' } },
      },
    },
  },
} as const;

/** ADR 0025: "sign out everywhere else" ended this many other live sessions and still-trusted devices. */
export const SESSIONS_ENDED_ANSWER = {
  type: 'object',
  required: ['sessionsEnded', 'trustedDevicesEnded'],
  properties: { sessionsEnded: { type: 'integer' }, trustedDevicesEnded: { type: 'integer' } },
} as const;

/** ADR 0015: the test identity provider's picker, the identities its client may sign in as. */
export const TEST_IDP_INTERACTION_ANSWER = {
  type: 'object',
  required: ['clientId', 'identities'],
  properties: {
    clientId: STRING,
    identities: {
      type: 'array',
      items: {
        type: 'object',
        required: ['subject', 'email', 'givenName', 'familyName'],
        properties: { subject: STRING, email: STRING, givenName: STRING, familyName: STRING },
      },
    },
  },
} as const;

/** ADR 0015: the registered redirect URI, with the code and state, where the browser goes next. */
export const TEST_IDP_CHOICE_ANSWER = { type: 'object', required: ['redirectTo'], properties: { redirectTo: STRING } } as const;

/** ADR 0011: the card is removed. */
export const CARD_REMOVED_ANSWER = { type: 'object', required: ['removed'], properties: { removed: { const: true } } } as const;

/** ADR 0006: a form payload passes the gateway's check. */
export const FORM_VALID_ANSWER = { type: 'object', required: ['valid'], properties: { valid: { const: true } } } as const;

/** The captcha token was verified. */
export const CAPTCHA_VERIFIED_ANSWER = { type: 'object', required: ['success'], properties: { success: { const: true } } } as const;

/** ADR 0018 test hooks: a test session is open until `expiresAt` (ISO 8601). */
export const TEST_SESSION_ANSWER = {
  type: 'object',
  required: ['signedIn', 'expiresAt'],
  properties: { signedIn: { const: true }, expiresAt: STRING },
} as const;

/** ADR 0018 test hooks: the gateway's clock after moving it (ISO 8601). */
export const TEST_CLOCK_ANSWER = { type: 'object', required: ['now'], properties: { now: STRING } } as const;

/** ADR 0018 test hooks: the next matching call will fail. */
export const TEST_FAILURE_ARMED_ANSWER = { type: 'object', required: ['armed'], properties: { armed: { const: true } } } as const;

/** `GET health`: the gateway answers, and which database it runs on (ADR 0003). */
export const HEALTH_ANSWER = {
  type: 'object',
  required: ['status', 'database'],
  properties: { status: { const: 'ok' }, database: { enum: ['pglite', 'postgres'] } },
} as const;

/** `GET health/live`: the gateway process answers (README "Health and readiness"). */
export const LIVENESS_ANSWER = { type: 'object', required: ['status'], properties: { status: { const: 'live' } } } as const;

/** `GET health/ready`: each check by name; 503 NOT_READY carries the same `checks` (README "Health and readiness"). */
export const READINESS_ANSWER = {
  type: 'object',
  required: ['status', 'checks'],
  properties: {
    status: { const: 'ready' },
    checks: {
      type: 'object',
      required: ['database', 'shutdown'],
      properties: { database: { enum: ['ok', 'unavailable'] }, redis: { enum: ['ok', 'unavailable'] }, shutdown: { enum: ['no', 'in-progress'] } },
      additionalProperties: false,
    },
  },
} as const;

/** ADR 0022 `GET user-auth/auth/user-token`: the session's access token, what is left of it, and who holds it. */
export const USER_TOKEN_ANSWER = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in', 'user_type', 'siteId', 'authorities'],
  properties: {
    access_token: STRING,
    token_type: { const: 'bearer' },
    // Seconds the session has left (SPEC §9 session_expiry = now + expires_in).
    expires_in: { type: 'integer', minimum: 0 },
    user_type: { enum: ['CARDHOLDER', 'CONCIERGE'] },
    siteId: STRING,
    authorities: { type: 'array', items: STRING },
  },
} as const;

/** Any JSON object, every member kept as sent (`additionalProperties`: the serialiser drops what a schema does not declare); the summary says what it holds. */
export const OBJECT_ANSWER = { type: 'object', additionalProperties: true } as const;
