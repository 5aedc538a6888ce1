import { isLoginUrl } from '../api/gateway-request-headers';
import type { GatewayOutcome } from '../api/gateway-events';

/** SPEC §8 "Status 0, 500, 502, 524": the statuses of the global alert (§9). */
export const GLOBAL_ERROR_STATUSES: ReadonlySet<number> = new Set([0, 500, 502, 524]);

/** SPEC §8 "Config and content fetch failures fall back silently": site config and both content calls of §7. */
const FALLS_BACK_SILENTLY = /^(?:site-config-service\/|bin\/aem\/rest(?:\?|$)|cmsapi\/)/;

export type CatalogueReaction =
  { kind: 'show-global-alert'; reference: string | null } | { kind: 'hide-global-alert' } | { kind: 'authentication-failure'; code: string } | { kind: 'none' };

/**
 * SPEC §8 as a pure decision on one gateway answer, given the page path it happened on:
 * - errors at /remove-asset URLs are ignored; nothing is handled on /otp-check-passcode;
 * - config and content fetch failures fall back silently (site config: the default; content: the
 *   bundled texts), so they never raise the alert;
 * - 0, 500, 502, 524 show the global alert with the server reference; a success hides it;
 * - 401 (except on change-password), 403 on auth-base URLs, any /auth/failure URL, or 400
 *   "invalid authentication request" are an authentication failure, except BAD_CREDENTIALS
 *   on token or login URLs.
 */
export function reactionTo(outcome: GatewayOutcome, pagePath: string): CatalogueReaction {
  if (/\/otp-check-passcode\/?$/.test(pagePath)) return { kind: 'none' };
  const succeeded = outcome.status >= 200 && outcome.status < 400;
  if (succeeded) return { kind: 'hide-global-alert' };
  if (outcome.url.includes('/remove-asset') || FALLS_BACK_SILENTLY.test(outcome.url)) return { kind: 'none' };
  if (GLOBAL_ERROR_STATUSES.has(outcome.status)) return { kind: 'show-global-alert', reference: outcome.correlationId };
  if (outcome.ownsAuthFailure || (outcome.code === 'BAD_CREDENTIALS' && isLoginUrl(outcome.url))) return { kind: 'none' };
  const path = outcome.url.split('?')[0] ?? '';
  const isAuthenticationFailure =
    (outcome.status === 401 && !/(?:^|\/)change-password$/.test(path)) ||
    (outcome.status === 403 && path.startsWith('user-auth/')) ||
    path.includes('/auth/failure') ||
    (outcome.status === 400 && /invalid authentication request/i.test(outcome.message ?? ''));
  return isAuthenticationFailure ? { kind: 'authentication-failure', code: outcome.code ?? 'UNAUTHENTICATED' } : { kind: 'none' };
}
