/**
 * The answers of the gateway's routes as JSON Schema, for the OpenAPI document only: Fastify does not
 * serialise with them (an answer is sent as the route builds it), so they document, never drop, a member.
 */
import { ENROLLED_ASSET_SCHEMA } from './enrolled-asset';

const STRING = { type: 'string' } as const;
const NULLABLE_STRING = { type: ['string', 'null'] } as const;

/** An answer `{ status: <one of these> }`. */
export function statusAnswer(...statuses: string[]) {
  return { type: 'object', required: ['status'], properties: { status: { enum: statuses } } } as const;
}

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
    passwordCompromised: { const: true },
    recoveryCodesLeft: { type: 'integer' },
  },
} as const;

/** schemas/entities/user-profile.ts `UserProfile`. */
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

/** ADR 0010: `{ userSites: { [siteId]: user site object } }`. */
export const USER_SITES_ANSWER = {
  type: 'object',
  required: ['userSites'],
  properties: { userSites: { type: 'object', additionalProperties: { type: 'object' } } },
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
  properties: { revoked: { const: true }, endSessionUrl: NULLABLE_STRING },
} as const;

/** ADR 0014: whom the agent acts for. */
export const ACTING_FOR_ANSWER = { type: 'object', required: ['actingFor'], properties: { actingFor: { type: ['object', 'null'] } } } as const;

/** ADR 0022: the alias as stored. */
export const ALIAS_ANSWER = {
  type: 'object',
  required: ['alias', 'aliasType'],
  properties: { alias: STRING, aliasType: { enum: ['USERNAME', 'EMAIL'] } },
} as const;

/** Any JSON object; the summary says what it holds. */
export const OBJECT_ANSWER = { type: 'object' } as const;
