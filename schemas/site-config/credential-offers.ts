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
