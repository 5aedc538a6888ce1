import type { USER_PROFILE_ANSWER } from '../api/response-schemas';
import type { SchemaType } from '../api/schema-type';

/**
 * SPEC §3 "User profile": the answer of `GET user-mgmt/user/find`, one shape for the gateway that
 * sends it and the app that reads it, made from the contract's schema (ADR 0023). `dob` keeps its
 * first 10 characters (YYYY-MM-DD), or null; `gender` only when known.
 */
export type UserProfile = SchemaType<typeof USER_PROFILE_ANSWER>;
