/**
 * The gateway's one error shape (README "Architecture", DESIGN "Contracts"): a machine code, a clear
 * message and, for validation failures, a per-field map of error keys (SPEC §8). The X-CID header
 * identifies the call. Every refusal of every route answers it; the app reads it in its base query.
 */
export interface ErrorBody {
  error: string;
  message: string;
  fields?: Record<string, string>;
  /** Facts some answers add beside the code (ADR 0008: `attemptsLeft`, `maskedDestination`; ADR 0011: `expectedFormat`). */
  [extra: string]: unknown;
}

/** `ErrorBody` as JSON Schema, for the OpenAPI document. */
export const ERROR_BODY_SCHEMA = {
  type: 'object',
  required: ['error', 'message'],
  properties: {
    error: { type: 'string', description: 'Machine code, e.g. VALIDATION_FAILED, UNAUTHENTICATED, SITE_MISMATCH.' },
    message: { type: 'string', description: 'A clear message for people; never echoes what the client sent.' },
    fields: { type: 'object', additionalProperties: { type: 'string' }, description: 'Per-field error keys (SPEC §8), e.g. { "email": "required" }.' },
  },
  additionalProperties: true,
} as const;
