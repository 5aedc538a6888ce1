import { readSiteFormSettings } from '../forms/site-form-settings';
import { featureConfigOf, type SiteConfig } from './types';

/**
 * Which credentials a site lets its people manage in the portal, read the same way by the app's
 * guards and profile links and by the gateway's refusals, so a screen never offers what the API
 * refuses (SPEC §2 password and mfa-setup, §3 site_auth_profile).
 */

/** The fixture format's `site_auth_profile.mfa` (ADR 0001): "off" offers no authenticator set-up. */
export function isMfaOffered(site: SiteConfig): boolean {
  return featureConfigOf(site, 'site_auth_profile').mfa !== 'off';
}

/** SPEC §3 `auth_mechanism` SSO: the password lives at the site's identity provider (ADR 0015), not here. */
export function isPasswordManagedHere(site: SiteConfig): boolean {
  return featureConfigOf(site, 'site_auth_profile').auth_mechanism !== 'SSO';
}

/** Where a one-time passcode goes (ADR 0008): the account's e-mail, or its phone by text. */
export type PasscodeChannel = 'email' | 'sms';

/**
 * SPEC §2 recovery variants: step-by-step (a choice of e-mail or SMS) when the locale is pt_br or
 * `send_sms` is "true". The gateway reads the same rule to decide which channels a recovery code may go
 * by (docs/decisions/0025-fresh-proof.md "Channels come from the site"), so a caller cannot ask SMS of a
 * site that offers none.
 */
export function isStepByStepRecovery(site: SiteConfig, locale: string): boolean {
  return locale === 'pt_br' || readSiteFormSettings(site).sendSms;
}

/** The channels a recovery code may go by on `site` in `locale`, e-mail first. */
export function recoveryChannelsOf(site: SiteConfig, locale: string): PasscodeChannel[] {
  return isStepByStepRecovery(site, locale) ? ['email', 'sms'] : ['email'];
}
