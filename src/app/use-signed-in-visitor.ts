import { useSelector } from 'react-redux';
import type { UserProfile } from '../../schemas/entities/user-profile';
import type { SiteConfig } from '../../schemas/site-config/types';
import { useGetActingForQuery, type ActingFor } from '../api/concierge-api';
import { useGetSiteConfigQuery } from '../api/site-config-api';
import { useGetProfileQuery } from '../api/user-mgmt-api';
import type { AccountRoute } from './route-names';
import { allowedAccountRoutes } from '../screens/profile/profile-links';
import { useSiteLocation } from '../site/use-site-location';
import type { RootState } from '../store';

/** A visitor signed in on this site (SPEC §4 LOGGEDIN), with what the frame shows about them. */
export interface SignedInVisitor {
  site: SiteConfig;
  /** The card holder's own profile; for an agent, the one acted for (ADR 0014); null while unknown. */
  profile: UserProfile | null;
  /** ADR 0014: the card holder a support agent acts for; null for a card holder or an agent acting for nobody. */
  actingFor: ActingFor | null;
  concierge: boolean;
  /** The routes of `routes` the guards let this visitor open, in the given order. */
  allowed: <Route extends AccountRoute>(routes: readonly Route[]) => Route[];
}

/** The signed-in visitor of this page, or null when nobody is signed in here (or the site is still loading). */
export function useSignedInVisitor(): SignedInVisitor | null {
  const { siteId, locale } = useSiteLocation();
  const auth = useSelector((state: RootState) => state.auth);
  const passwordChangeRequired = useSelector((state: RootState) => state.passwordChange.required);
  const signedIn = auth.name === 'LOGGEDIN' && auth.siteId === siteId;
  const concierge = signedIn && auth.userType === 'CONCIERGE';
  const site = useGetSiteConfigQuery(siteId, { skip: !signedIn }).data;
  const actingFor = useGetActingForQuery({ siteId }, { skip: !concierge }).data ?? null;
  // An agent acting for nobody has no "user" to read (ADR 0014).
  const profile = useGetProfileQuery({ siteId, concierge }, { skip: !signedIn || (concierge && actingFor === null) }).data ?? null;
  if (!signedIn || site === undefined) return null;
  const visitor = {
    mfaEnrolled: profile?.mfaEnrollmentStatus === 'ENROLLED',
    userType: auth.userType,
    actingForUser: actingFor !== null,
    passwordChangeRequired,
  };
  return { site, profile, actingFor, concierge, allowed: (routes) => allowedAccountRoutes(routes, site, locale, visitor) };
}
