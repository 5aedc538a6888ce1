import type { GatewayError } from '../api/gateway-api';
import { asGatewayError, refusalText, type TextRef } from '../api/gateway-error';
import type { NotificationInfo, PasscodeChannel } from '../api/user-mgmt-api';

/**
 * "Confirm it's you" before a change that lets someone own the account (the phone, two-step
 * verification, the password, an alias, deleting the account). The gateway refuses such a call with
 * `403 FRESH_PROOF_REQUIRED { proof, channels }` until the person has passed `user-auth/otp/verify`
 * in the last minutes (ADR 0008 verify, SPEC §2 otp-check screens); the app then asks for the code in
 * place and sends the same call again. Pure, so every answer is tested without a browser.
 */
export interface FreshProofDemand {
  /** `totp`: a code from the authenticator app; `passcode`: a code sent by e-mail or SMS. */
  proof: 'totp' | 'passcode';
  /** Where a passcode may be sent (only for `passcode`), in the gateway's order; never empty. */
  channels: readonly PasscodeChannel[];
}

export const FRESH_PROOF_REQUIRED = 'FRESH_PROOF_REQUIRED';

const CHANNELS: readonly PasscodeChannel[] = ['email', 'sms'];

/**
 * The demand a refusal carries, or null when the refusal is anything else. A passcode demand that
 * names no channel we know asks for the e-mail, where every account can receive one (SPEC §3 email).
 */
export function freshProofDemandOf(failure: unknown): FreshProofDemand | null {
  const error = asGatewayError(failure);
  if (error.status !== 403 || error.code !== FRESH_PROOF_REQUIRED) return null;
  if (error.details?.proof === 'totp') return { proof: 'totp', channels: [] };
  const named = Array.isArray(error.details?.channels) ? (error.details.channels as unknown[]) : [];
  const channels = CHANNELS.filter((channel) => named.includes(channel)).sort((a, b) => named.indexOf(a) - named.indexOf(b));
  return { proof: 'passcode', channels: channels.length > 0 ? channels : ['email'] };
}

/** One way to send the passcode, with the masked address or number to show (null when unknown). */
export interface OfferedChannel {
  channel: PasscodeChannel;
  maskedDestination: string | null;
}

/**
 * The channels to offer: those the gateway allows for which the person has a destination
 * (get-preference-details: `phone` null means no SMS). Without the details, or when none match,
 * every allowed channel, unmasked: the gateway knows where to send it.
 */
export function offeredChannels(demand: FreshProofDemand, info: NotificationInfo | undefined): OfferedChannel[] {
  const destinationOf = (channel: PasscodeChannel): string | null => (info === undefined ? null : channel === 'email' ? info.email : info.phone);
  const known = demand.channels.filter((channel) => destinationOf(channel) !== null);
  return (known.length > 0 ? known : demand.channels).map((channel) => ({ channel, maskedDestination: destinationOf(channel) }));
}

/** A passcode sent for the check, and when (ms since the epoch): the dialog's step, kept for the tab (ADR 0019 "Flow steps"). */
export type SentPasscode = { channel: PasscodeChannel; maskedDestination: string | null; sentAt: number };

/** ADR 0008: a passcode lives 10 minutes. */
const PASSCODE_LIFE_MS = 10 * 60 * 1000;

/**
 * The kept send (ADR 0019 "Flow steps") when it still stands for this demand: a channel the gateway allows now, sent
 * less than a passcode's life ago. The dialog then asks for that code instead of sending another (ADR 0008 "Codes
 * asked for again": it is still live), so a reload while the code is on its way costs no second message.
 */
export function keptPasscodeSend(kept: Readonly<Record<string, unknown>>, demand: FreshProofDemand, now: number): SentPasscode | null {
  const { channel, maskedDestination, sentAt } = kept;
  if (demand.proof !== 'passcode' || typeof sentAt !== 'number' || now - sentAt < 0 || now - sentAt >= PASSCODE_LIFE_MS) return null;
  if (!demand.channels.some((allowed) => allowed === channel)) return null;
  if (maskedDestination !== null && typeof maskedDestination !== 'string') return null;
  return { channel: channel as PasscodeChannel, maskedDestination, sentAt };
}

/** Codes whose Retry-After says when a code can be sent or checked again: ADR 0008 limits, a mail server or counter store down. */
const WAIT_CODES: ReadonlySet<string> = new Set(['RATE_LIMITED', 'DELIVERY_UNAVAILABLE', 'SERVICE_UNAVAILABLE']);

/** The seconds the gateway asked to wait before the same action (429/503 with Retry-After), or null. */
export function waitSecondsOf(failure: unknown): number | null {
  const error = asGatewayError(failure);
  if (!WAIT_CODES.has(error.code) && error.status !== 429 && error.status !== 503) return null;
  return error.retryAfterSeconds !== undefined && error.retryAfterSeconds > 0 ? error.retryAfterSeconds : null;
}

/** A wrong or spent code is the dialog's to show (ADR 0008); any other 401 means the session itself ended (SPEC §8). */
const CODE_ERRORS: ReadonlySet<string> = new Set(['OTP_INVALID', 'OTP_EXPIRED', 'OTP_SPENT', 'VALIDATION_FAILED']);

export function endsTheSession(failure: unknown): failure is GatewayError {
  const error = asGatewayError(failure);
  return error.status === 401 && !CODE_ERRORS.has(error.code);
}

const signIn = (key: string): TextRef => ({ group: 'signIn', key });

/**
 * What the dialog says about a refused code or send, next to the code field: a wrong code with the
 * attempts left, an expired or spent one, a wait (its seconds are counted down beside it), else the
 * sign-in refusal texts.
 */
export function freshProofRefusal(failure: unknown): TextRef {
  const error = asGatewayError(failure);
  if (error.code === 'RATE_LIMITED' || error.status === 429) return signIn('error.rateLimitedWait');
  if (error.code === 'DELIVERY_UNAVAILABLE') return signIn('freshProof.deliveryUnavailable');
  if (error.status === 503) return signIn('freshProof.unavailable');
  return refusalText(error);
}
