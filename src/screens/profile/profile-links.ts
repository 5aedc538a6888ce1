import type { SiteConfig } from '../../../schemas/site-config/types';
import { FEATURE_FLAGS } from '../../app/feature-flags';
import type { AccountRoute } from '../../app/route-names';
import type { UserType } from '../../auth/auth-machine';
import { decideRoute } from '../../routes/route-guards';

/** The profile's way to every screen about the account (SPEC §2), in the order it lists them. */
export const PROFILE_LINK_ROUTES = ['edit-profile', 'site-settings', 'cashback-statement', 'edit-pan', 'password', 'mfa-setup', 'delete-profile'] as const satisfies readonly AccountRoute[];
export type ProfileLinkRoute = (typeof PROFILE_LINK_ROUTES)[number];

/**
 * The links a signed-in person may follow: exactly the routes whose guards let them in on this site
 * (edit-profile when profile updates are allowed, §6; delete-profile unless allow_delete_profile is
 * "false"; site-settings when offer preferences are shown; mfa-setup unless the site turns MFA off;
 * password unless the site signs in through SSO, ADR 0015;
 * for a support agent acting for someone, none of the credential screens, ADR 0014).
 */
export function profileLinks(site: SiteConfig, locale: string, mfaEnrolled: boolean, userType: UserType): ProfileLinkRoute[] {
  return PROFILE_LINK_ROUTES.filter(
    (route) =>
      decideRoute({
        route,
        auth: 'LOGGEDIN',
        site,
        locale,
        search: '',
        flags: FEATURE_FLAGS,
        hasRegistrationData: false,
        hasPendingSignIn: false,
        hasNotificationInfo: false,
        device: null,
        mfaEnrolled,
        userType,
        // The profile shows only once an agent acts for someone.
        actingForUser: true,
        // The profile shows only once the gateway no longer holds the account (ADR 0009).
        passwordChangeRequired: false,
      }).kind === 'allow',
  );
}
