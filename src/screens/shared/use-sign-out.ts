import { useSelector } from 'react-redux';
import { useLocation, useNavigate } from 'react-router-dom';
import { useGetSiteConfigQuery } from '../../api/site-config-api';
import { FEATURE_FLAGS } from '../../app/feature-flags';
import { leaveDocumentFor } from '../../app/leave-document';
import type { FeatureEvent } from '../../app/mobile-bridge';
import { userTypeInState } from '../../auth/auth-machine';
import { signOut } from '../../auth/session-steps';
import { markSignedOut } from '../../auth/signed-out-mark';
import { isSsoSite, signInRoute } from '../../routes/route-guards';
import { useSiteLocation } from '../../site/use-site-location';
import type { RootState } from '../../store';
import { useBrowserSession } from './browser-session';

/**
 * SPEC §4 sign-out steps (auth/session-steps.ts signOut) for this visitor, then the sign-in route
 * keeping the query. `beforeLeaving` runs between the two (a screen's notice, say). On an SSO site
 * the browser goes on to the identity provider's end-session URL instead, which returns it to the site
 * (SPEC §7 OIDC logout, or SAML single logout), so the provider does not sign the person straight back in.
 */
export function useSignOut(): (featureEvent?: Extract<FeatureEvent, 'logout' | 'deleteProfile'>, beforeLeaving?: () => void) => Promise<void> {
  const site = useSiteLocation();
  const { search } = useLocation();
  const navigate = useNavigate();
  const session = useBrowserSession();
  const userType = useSelector((state: RootState) => userTypeInState(state.auth));
  const siteConfig = useGetSiteConfigQuery(site.siteId).data;
  const sso = siteConfig !== undefined && isSsoSite(siteConfig);
  return async (featureEvent = 'logout', beforeLeaving) => {
    const endSessionUrl = await signOut(session, site, userType, featureEvent, sso);
    beforeLeaving?.();
    // The sign-in page the person lands on says they are signed out (auth/signed-out-mark.ts): every way back from an
    // SSO sign-out ends on redirect-sso; a password site's says it after a sign-out, not after deleting the profile,
    // whose own notice says more.
    if (sso || featureEvent === 'logout') markSignedOut(site.siteId);
    if (endSessionUrl !== null) {
      leaveDocumentFor(endSessionUrl);
      return;
    }
    await navigate(`${site.basePath}${signInRoute(FEATURE_FLAGS)}${search}`, { replace: true });
  };
}
