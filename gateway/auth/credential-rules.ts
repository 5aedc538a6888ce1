import { isMfaOffered, isPasswordManagedHere } from '../../schemas/site-config/credential-offers';
import type { SiteConfig } from '../../schemas/site-config/types';
import type { Fixtures } from '../site-files/load-fixtures';
import { HttpError } from '../http/errors';

/**
 * The password an SSO account is created with (ADR 0015): no Argon2 PHC string, so no password
 * ever verifies against it.
 */
export const NO_PASSWORD_MARKER = '!sso';

/** A stored hash a password can match: every PHC string starts with `$`; the SSO marker does not. */
export function hasUsablePassword(passwordHash: string): boolean {
  return passwordHash.startsWith('$');
}

/** The session's site, or the default site for a site id the fixtures no longer hold. */
export function sessionSiteConfig(fixtures: Fixtures, siteId: string): SiteConfig {
  return fixtures.sites.get(siteId)?.config ?? fixtures.defaultSite.config;
}

/**
 * SPEC §2 password, ADR 0015: a person who signs in through the site's identity provider (an SSO
 * site's session, or an account with no usable password) changes their password there, not here:
 * 403 PASSWORD_MANAGED_BY_SSO.
 */
export function assertPasswordChangeOffered(site: SiteConfig, passwordHash: string): void {
  if (!isPasswordManagedHere(site) || !hasUsablePassword(passwordHash)) {
    throw new HttpError(403, 'PASSWORD_MANAGED_BY_SSO', 'Your password is managed by your bank’s single sign-on; change it there.');
  }
}

/** SPEC §2 mfa-setup: 403 MFA_NOT_OFFERED on a site whose `site_auth_profile.mfa` is "off". */
export function assertMfaOffered(site: SiteConfig): void {
  if (!isMfaOffered(site)) throw new HttpError(403, 'MFA_NOT_OFFERED', 'This site does not offer two-step verification with an authenticator app.');
}
