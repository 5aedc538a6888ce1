import { offersCashbackStatement } from '../../../schemas/cards/card-config';
import type { SiteConfig } from '../../../schemas/site-config/types';
import { FEATURE_FLAGS } from '../../app/feature-flags';
import type { AccountRoute } from '../../app/route-names';
import type { UserType } from '../../auth/auth-machine';
import { decideRoute } from '../../routes/route-guards';

/** The profile's way to every screen about the account (SPEC §2), in the order it lists them. */
export const PROFILE_LINK_ROUTES = [
  'edit-profile',
  'site-settings',
  'cashback-statement',
  'edit-pan',
  'password',
  'mfa-setup',
  'signed-in-devices',
  'delete-profile',
] as const satisfies readonly AccountRoute[];
export type ProfileLinkRoute = (typeof PROFILE_LINK_ROUTES)[number];

/**
 * The account screens the header's account menu offers, in its order (SPEC §2): the profile and its editing, cards,
 * cashback, preferences, password, two-step verification, the signed-in devices (ADR 0025), and the agent's own
 * screen (ADR 0014). Each shows only where its guards let the visitor in, so an agent acting for a card holder
 * sees the holder's screens the gateway lets an agent use (profile, its editing, the cards to read, cashback,
 * preferences) and none of the holder-only ones.
 */
export const ACCOUNT_MENU_ROUTES = [
  'profile',
  'edit-profile',
  'edit-pan',
  'cashback-statement',
  'site-settings',
  'password',
  'mfa-setup',
  'signed-in-devices',
  'concierge',
] as const satisfies readonly AccountRoute[];

/** Who is signed in, as the guards ask it (SPEC §2, §4; ADR 0014). */
export interface SignedInVisitor {
  mfaEnrolled: boolean;
  userType: UserType;
  /** ADR 0014: an agent has chosen the card holder to act for. */
  actingForUser: boolean;
  /**
   * ADR 0009 "Compromised credentials": the gateway holds the account until the password is replaced, and every
   * account screen leads back to the replacement; a menu offering them would offer pages that bounce straight back.
   */
  passwordChangeRequired?: boolean;
}

/**
 * The routes of `routes` a signed-in visitor may open on this site: exactly those whose guards
 * (decideRoute) let them in, so a link shown and the guard behind it cannot disagree; and of those, the
 * ones the site's programme has: no cashback statement without cashback (ADR 0001 `cashback_enabled`;
 * its route stays open and says so, for a bookmark).
 */
export function allowedAccountRoutes<Route extends AccountRoute>(
  routes: readonly Route[],
  site: SiteConfig,
  locale: string,
  visitor: SignedInVisitor,
): Route[] {
  return routes.filter(
    (route) =>
      (route !== 'cashback-statement' || offersCashbackStatement(site)) &&
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
        passwordChangeRequired: false,
        ...visitor,
      }).kind === 'allow',
  );
}

/**
 * The links a signed-in person may follow: exactly the routes whose guards let them in on this site
 * (edit-profile when profile updates are allowed, §6; delete-profile unless allow_delete_profile is
 * "false"; site-settings when offer preferences are shown; mfa-setup unless the site turns MFA off;
 * password unless the site signs in through SSO, ADR 0015; signed-in-devices for a card holder, ADR 0025;
 * for a support agent acting for someone, the cards to read but none of the credential screens, ADR 0014).
 */
export function profileLinks(site: SiteConfig, locale: string, mfaEnrolled: boolean, userType: UserType): ProfileLinkRoute[] {
  // The profile shows only once an agent acts for someone.
  return allowedAccountRoutes(PROFILE_LINK_ROUTES, site, locale, { mfaEnrolled, userType, actingForUser: true });
}
