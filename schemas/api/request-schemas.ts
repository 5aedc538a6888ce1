/**
 * The request schemas of the gateway's routes (JSON Schema, as Fastify's ajv checks them), one place for
 * the gateway that validates with them and the OpenAPI document that publishes them (`routes.ts`).
 * Pure data. A schema refuses extra members by name (`propertyNames`) where the route must not drop
 * them silently: Fastify strips `additionalProperties: false` keys from bodies instead of refusing them.
 * A 400 from any of them is the gateway's VALIDATION_FAILED naming each field (gateway/http/errors.ts).
 */
import { ALIAS_MAX_LENGTH, ALIAS_TYPES } from '../account/user-alias';
import { ONE_TIME_CODE_PATTERN } from '../forms/one-time-code';
import { LOCALE_ID_PATTERN } from '../locales/locale-table';
import { SITE_ID_PATTERN } from '../site-config/types';
import { CVV_MAX_INPUT_LENGTH } from '../validators/cvv';

/** ADR 0021: a backup code as typed (base32 letters and digits, spaces and dashes between groups allowed). */
export const BACKUP_CODE_INPUT_PATTERN = '^[A-Za-z2-7][A-Za-z2-7 -]{9,19}$';
/** A content group's name (SPEC §7 `contentType`, the last segment of a cmsapi path). */
export const CONTENT_GROUP_PATTERN = '^[A-Za-z0-9_-]{1,64}$';

const SITE_ID = { type: 'string', pattern: SITE_ID_PATTERN } as const;
const LOCALE = { type: 'string', pattern: LOCALE_ID_PATTERN } as const;
const EMAIL = { type: 'string', minLength: 1, maxLength: 254 } as const;
const PASSWORD = { type: 'string', maxLength: 256 } as const;
const PASSCODE = { type: 'string', minLength: 1, maxLength: 16 } as const;
const SIX_DIGIT_CODE = { type: 'string', pattern: ONE_TIME_CODE_PATTERN } as const;
const REFRESH_TOKEN = { type: 'string', maxLength: 128 } as const;

/** A `siteId` path or query parameter, shaped as site fixtures name sites (ADR 0001). */
export const SITE_ID_PARAMS = { type: 'object', properties: { siteId: SITE_ID } } as const;

// Content (SPEC §7, ADR 0013) and offers.

export const CONTENT_QUERY = {
  type: 'object',
  required: ['version', 'locale', 'siteId'],
  properties: {
    version: { type: 'integer', enum: [2, 3] },
    contentType: { type: 'string', pattern: CONTENT_GROUP_PATTERN },
    level: { type: 'integer', const: -1 },
    locale: LOCALE,
    siteId: SITE_ID,
  },
} as const;
export const CMS_CONTENT_PARAMS = { type: 'object', properties: { siteId: SITE_ID } } as const;
export const LOCALE_QUERY = { type: 'object', properties: { locale: LOCALE } } as const;

// User attributes (ADR 0010), for the card holder's calls and the agent's alike (ADR 0014).

/**
 * The outer shape of a site attributes object in a request body (ADR 0010). Each value is checked
 * with the site's own rules afterwards; this only bounds what reaches them, so a key name is
 * never a novel of its own in an error answer.
 */
export const SITE_ATTRIBUTES_SCHEMA = {
  type: 'object',
  maxProperties: 64,
  propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' },
} as const;

/** The body of a v2 save of changed attributes (ADR 0010). */
export const CHANGED_ATTRIBUTES_BODY = {
  type: 'object',
  required: ['attributes'],
  propertyNames: { enum: ['attributes', 'baseVersion'] },
  properties: { attributes: SITE_ATTRIBUTES_SCHEMA, baseVersion: { type: 'integer', minimum: 0 } },
} as const;

/** The body of a whole user site object save; extra members are refused by name by the route (SPEC §7 "minus vopUsers"). */
export const SITE_OBJECT_SCHEMA = {
  type: 'object',
  required: ['siteId', 'attributes', 'version'],
  properties: { siteId: { type: 'string', maxLength: 64 }, attributes: SITE_ATTRIBUTES_SCHEMA, version: { type: 'integer', minimum: 0 } },
} as const;

// Cards (ADR 0011, ADR 0022 "assets/validation").

/** No site takes more cards in one call than this; the limit itself is the site's. */
export const MAX_CARDS_PER_CALL = 10;
/** A card number with spaces (19) and then some: anything longer is not one, and is not read further. */
const CARD_VALUE = { type: 'string', maxLength: 32 } as const;
const PAN_ENTRY = {
  type: 'object',
  required: ['assetType', 'value'],
  propertyNames: { enum: ['assetType', 'value'] },
  properties: { assetType: { const: 'PAN' }, value: CARD_VALUE },
} as const;

/**
 * The body of a card validation call, the site's own path and SPEC §7's declared `assets/validation` alike:
 * the PAN entry and, on a site with `pan_capture.capture_cvv`, the security code (checked and dropped).
 */
export const CARD_VALIDATION_BODY = {
  type: 'object',
  required: ['assetType', 'value'],
  propertyNames: { enum: ['assetType', 'value', 'cvv'] },
  properties: { assetType: { const: 'PAN' }, value: CARD_VALUE, cvv: { type: 'string', maxLength: CVV_MAX_INPUT_LENGTH } },
} as const;

export const CARD_ENROLMENT_BODY = {
  type: 'object',
  required: ['siteId', 'userAssetRequest'],
  propertyNames: { enum: ['siteId', 'userAssetRequest'] },
  properties: {
    siteId: SITE_ID,
    userAssetRequest: { type: 'array', minItems: 1, maxItems: MAX_CARDS_PER_CALL, items: PAN_ENTRY },
  },
} as const;

export const SET_DEFAULT_CARD_BODY = {
  type: 'object',
  required: ['isDefaultAsset'],
  propertyNames: { enum: ['isDefaultAsset'] },
  properties: { isDefaultAsset: { const: true } },
} as const;

// Sign-in and sessions (ADR 0008, ADR 0015, ADR 0022).

export const PREAUTH_QUERY = { type: 'object', properties: { preauth: { type: 'string', enum: ['true', 'false'] } } } as const;
export const REVOKE_QUERY = { type: 'object', properties: { refresh_token: REFRESH_TOKEN } } as const;
export const OIDC_LOGOUT_QUERY = {
  type: 'object',
  properties: { refresh_token: REFRESH_TOKEN, post_logout_redirect_uri: { type: 'string', maxLength: 2048 } },
} as const;
export const OTP_VERIFY_BODY = {
  type: 'object',
  required: ['otp', 'otp_type'],
  properties: { otp: SIX_DIGIT_CODE, otp_type: { type: 'string', enum: ['email', 'sms', 'totp'] } },
} as const;

const SSO_PARAMETER = { type: 'string', maxLength: 2048 } as const;
/** ADR 0015: the start of an SSO sign-in, `GET user-auth/oidc/authorize?siteId=…`. */
export const SSO_AUTHORIZE_QUERY = {
  type: 'object',
  required: ['siteId'],
  properties: {
    siteId: SITE_ID,
    client_id: SSO_PARAMETER,
    response_type: SSO_PARAMETER,
    scope: SSO_PARAMETER,
    state: SSO_PARAMETER,
    nonce: SSO_PARAMETER,
    redirect_uri: SSO_PARAMETER,
    last_visited_path: SSO_PARAMETER,
  },
} as const;
/** ADR 0015: the finish of an SSO sign-in, the issuer's code and state. */
export const SSO_FINISH_BODY = {
  type: 'object',
  required: ['siteId', 'code', 'state'],
  additionalProperties: false,
  properties: { siteId: SITE_ID, code: { type: 'string', maxLength: 128 }, state: { type: 'string', maxLength: 128 } },
} as const;

/** docs/decisions/0028-sso-saml.md: the start of a SAML sign-in. */
export const SAML_AUTHORIZE_QUERY = {
  type: 'object',
  required: ['siteId'],
  additionalProperties: false,
  properties: { siteId: SITE_ID, last_visited_path: SSO_PARAMETER },
} as const;
/** ADR 0028: the site whose assertion consumer service or SP metadata is asked for. */
export const SAML_ACS_PARAMS = { type: 'object', required: ['siteId'], additionalProperties: false, properties: { siteId: SITE_ID } } as const;
export const SAML_METADATA_PARAMS = SAML_ACS_PARAMS;
export const SAML_SLO_PARAMS = SAML_ACS_PARAMS;
/**
 * ADR 0028 "Sign-out": the identity provider's LogoutResponse, HTTP-Redirect binding. Nothing is required here: a
 * missing or wrong field is the single logout service's own refusal page, in the site's language.
 */
export const SAML_SLO_QUERY = {
  type: 'object',
  properties: {
    SAMLResponse: { type: 'string', maxLength: 8192 },
    SAMLRequest: { type: 'string', maxLength: 8192 },
    RelayState: { type: 'string', maxLength: 80 },
    SigAlg: { type: 'string', maxLength: 128 },
    Signature: { type: 'string', maxLength: 2048 },
  },
} as const;

/** ADR 0028: the test SAML identity provider's single sign-on service, HTTP-Redirect binding. */
export const TEST_SAML_IDP_SSO_QUERY = {
  type: 'object',
  required: ['SAMLRequest'],
  properties: { SAMLRequest: { type: 'string', minLength: 1, maxLength: 8192 }, RelayState: { type: 'string', maxLength: 80 } },
} as const;

/** ADR 0028 "Sign-out": the test SAML identity provider's single logout service, HTTP-Redirect binding. */
export const TEST_SAML_IDP_SLO_QUERY = {
  type: 'object',
  required: ['SAMLRequest'],
  properties: {
    SAMLRequest: { type: 'string', minLength: 1, maxLength: 8192 },
    RelayState: { type: 'string', maxLength: 80 },
    SigAlg: { type: 'string', maxLength: 128 },
    Signature: { type: 'string', maxLength: 2048 },
  },
} as const;

// Passcodes, MFA and recovery (ADR 0008, ADR 0009, ADR 0021).

export const PREFERENCE_DETAILS_BODY = {
  type: 'object',
  required: ['primaryUserIdentifier', 'siteId'],
  properties: { primaryUserIdentifier: EMAIL, siteId: SITE_ID },
} as const;
export const SEND_CODE_BODY = {
  type: 'object',
  required: ['channel', 'purpose'],
  properties: { channel: { type: 'string', enum: ['email', 'sms'] }, purpose: { type: 'string', enum: ['login', 'otp-check'] } },
} as const;
export const TOTP_CODE_BODY = { type: 'object', required: ['code'], properties: { code: SIX_DIGIT_CODE } } as const;
/** A current authenticator code, or one of the backup codes when the phone is lost. */
export const SECOND_FACTOR_BODY = {
  type: 'object',
  properties: { code: SIX_DIGIT_CODE, backupCode: { type: 'string', maxLength: 20, pattern: BACKUP_CODE_INPUT_PATTERN } },
  anyOf: [{ required: ['code'] }, { required: ['backupCode'] }],
} as const;
export const SEND_PASSCODE_BODY = {
  type: 'object',
  required: ['email', 'siteId', 'locale'],
  properties: { email: EMAIL, siteId: SITE_ID, locale: LOCALE, channel: { type: 'string', enum: ['email', 'sms'] } },
} as const;
export const FIND_CODE_BODY = { type: 'object', required: ['email', 'passcode'], properties: { email: EMAIL, passcode: PASSCODE } } as const;
export const PASSWORD_FROM_PASSCODE_BODY = {
  type: 'object',
  required: ['email', 'passcode', 'password', 'confirm_password'],
  properties: { email: EMAIL, passcode: PASSCODE, password: PASSWORD, confirm_password: PASSWORD },
} as const;

// Account (ADR 0009, ADR 0022).

const NEW_PASSWORD_PROPERTIES = { password: PASSWORD, confirm_password: PASSWORD } as const;
export const CHANGE_PASSWORD_BODY = {
  type: 'object',
  required: ['currentPassword', 'password', 'confirm_password'],
  properties: { currentPassword: PASSWORD, ...NEW_PASSWORD_PROPERTIES },
} as const;
export const COMPROMISED_PASSWORD_BODY = { type: 'object', required: ['password', 'confirm_password'], properties: NEW_PASSWORD_PROPERTIES } as const;

/** No registration enrols more cards than this. */
const MAX_REGISTRATION_CARDS = 10;
const REGISTRATION_PROPERTIES = {
  siteId: SITE_ID,
  locale: LOCALE,
  // The form data itself is checked against the site's schema (`assertValidRegistration`).
  user: { type: 'object' },
  cards: {
    type: 'array',
    maxItems: MAX_REGISTRATION_CARDS,
    items: { type: 'object', required: ['pan'], properties: { pan: { type: 'string', maxLength: 64 } } },
  },
} as const;
export const REGISTRATION_BODY = { type: 'object', required: ['siteId', 'locale', 'user'], properties: REGISTRATION_PROPERTIES } as const;
/** `register/{siteId}`: the site is the path's. */
export const SITE_REGISTRATION_BODY = { type: 'object', required: ['locale', 'user'], properties: REGISTRATION_PROPERTIES } as const;
/**
 * ADR 0009 "Activation": the link's token and the password chosen at registration. `password` is left out of
 * `required` so that the old `{ token }` is refused by the route with its own code (400 PASSWORD_REQUIRED naming
 * `password`) rather than a bare schema error.
 */
export const ACTIVATE_TOKEN_BODY = {
  type: 'object',
  required: ['token'],
  properties: { token: { type: 'string', maxLength: 256 }, password: PASSWORD },
} as const;
/**
 * ADR 0021 "Telling the holder": the token of a notice's "this wasn't me" link, and nothing else. Any text up to this
 * length is taken, so an unknown, spent or expired token answers alike (400 SECURE_ACCOUNT_LINK_INVALID).
 */
export const SECURE_ACCOUNT_BODY = {
  type: 'object',
  required: ['token'],
  propertyNames: { enum: ['token'] },
  properties: { token: { type: 'string', maxLength: 256 } },
} as const;
export const ACTIVATION_EMAIL_BODY = {
  type: 'object',
  required: ['email', 'siteId', 'locale'],
  properties: { email: EMAIL, siteId: SITE_ID, locale: LOCALE },
} as const;
export const ALIAS_BODY = {
  type: 'object',
  required: ['alias', 'aliasType'],
  propertyNames: { enum: ['alias', 'aliasType'] },
  properties: { alias: { type: 'string', maxLength: ALIAS_MAX_LENGTH }, aliasType: { type: 'string', enum: [...ALIAS_TYPES] } },
} as const;
/** ADR 0022 "Proving an EMAIL alias": the address waiting for its code, and the six digits mailed to it. */
export const ALIAS_CONFIRM_BODY = {
  type: 'object',
  required: ['alias', 'passcode'],
  propertyNames: { enum: ['alias', 'passcode'] },
  properties: { alias: { type: 'string', maxLength: ALIAS_MAX_LENGTH }, passcode: SIX_DIGIT_CODE },
} as const;

/** ADR 0025 "A new phone is proved before it counts": the code texted to the new number. */
export const PHONE_PROOF_BODY = {
  type: 'object',
  required: ['passcode'],
  propertyNames: { enum: ['passcode'] },
  properties: { passcode: SIX_DIGIT_CODE },
} as const;

/** ADR 0025 "Sessions the holder can see": a session of the holder's list, by the id the list gave it. */
export const SESSION_ID_PARAMS = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' } },
} as const;

// Concierge (ADR 0014).

export const ACT_FOR_BODY = {
  type: 'object',
  required: ['email'],
  propertyNames: { enum: ['email'] },
  properties: { email: { type: 'string', maxLength: 254 } },
} as const;

// Development and test only (ADR 0008 outbox, ADR 0015 test identity provider, test hooks).

export const DEV_OUTBOX_QUERY = { type: 'object', required: ['to'], properties: { to: { type: 'string', minLength: 1, maxLength: 254 } } } as const;

const TEST_IDP_AUTHORIZE_PARAMETER = { type: 'string', maxLength: 2048 } as const;
export const TEST_IDP_AUTHORIZE_QUERY = {
  type: 'object',
  properties: {
    response_type: TEST_IDP_AUTHORIZE_PARAMETER,
    client_id: TEST_IDP_AUTHORIZE_PARAMETER,
    redirect_uri: TEST_IDP_AUTHORIZE_PARAMETER,
    scope: TEST_IDP_AUTHORIZE_PARAMETER,
    state: TEST_IDP_AUTHORIZE_PARAMETER,
    nonce: TEST_IDP_AUTHORIZE_PARAMETER,
    code_challenge: TEST_IDP_AUTHORIZE_PARAMETER,
    code_challenge_method: TEST_IDP_AUTHORIZE_PARAMETER,
  },
} as const;
const TEST_IDP_END_SESSION_PARAMETER = { type: 'string', maxLength: 4096 } as const;
export const TEST_IDP_END_SESSION_QUERY = {
  type: 'object',
  properties: {
    client_id: TEST_IDP_END_SESSION_PARAMETER,
    post_logout_redirect_uri: TEST_IDP_END_SESSION_PARAMETER,
    state: TEST_IDP_END_SESSION_PARAMETER,
    id_token_hint: TEST_IDP_END_SESSION_PARAMETER,
  },
} as const;
export const TEST_IDP_INTERACTION_PARAMS = { type: 'object', properties: { interaction: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' } } } as const;
export const TEST_IDP_CHOICE_BODY = {
  type: 'object',
  required: ['subject'],
  additionalProperties: false,
  properties: { subject: { type: 'string', minLength: 1, maxLength: 128 } },
} as const;

export const TEST_SESSION_BODY = {
  type: 'object',
  required: ['email', 'siteId'],
  additionalProperties: false,
  properties: { email: { type: 'string', minLength: 3, maxLength: 254 }, siteId: SITE_ID },
} as const;
export const TEST_CLOCK_BODY = {
  type: 'object',
  required: ['advanceSeconds'],
  additionalProperties: false,
  properties: { advanceSeconds: { type: 'integer', minimum: 0, maximum: 366 * 24 * 3600 } },
} as const;
export const TEST_FAILURE_BODY = {
  type: 'object',
  required: ['method', 'path', 'status'],
  additionalProperties: false,
  properties: {
    method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
    path: { type: 'string', minLength: 1, maxLength: 300 },
    status: { type: 'integer', minimum: 400, maximum: 599 },
  },
} as const;
