import { createAction } from '@reduxjs/toolkit';

/**
 * What the gateway answered, dispatched by the base query after every call, so the error
 * catalogue (SPEC §8) reacts to every answer in one place: errors show or hide the global alert
 * and trigger the authentication-failure rule.
 */
export interface GatewayOutcome {
  /** As requested: relative to the gateway base, or page-root when it starts with `/`. */
  url: string;
  /** HTTP status; 0 when no answer arrived. */
  status: number;
  /** The error's machine code (SPEC §8 names), null on success. */
  code: string | null;
  /** The error's message, for the "invalid authentication request" rule; null on success. */
  message: string | null;
  /** The answer's X-CID header, the server reference of §8. */
  correlationId: string | null;
  /** The caller turns an authentication error into its own state (§4 background check). */
  ownsAuthFailure: boolean;
  /** Why a 401 ended the session elsewhere (`sessionEnded`, e.g. `password_changed`); absent otherwise. */
  sessionEnded?: string;
}

export const gatewayResponded = createAction<GatewayOutcome>('gateway/responded');
