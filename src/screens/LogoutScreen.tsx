import { useEffect, useRef } from 'react';
import { useSelector } from 'react-redux';
import { useLocation, useNavigate } from 'react-router-dom';
import { FEATURE_FLAGS } from '../app/feature-flags';
import { userTypeInState } from '../auth/auth-machine';
import { signOut } from '../auth/session-steps';
import { useText } from '../content/use-text';
import { signInRoute } from '../routes/route-guards';
import { useSiteLocation } from '../site/use-site-location';
import type { RootState } from '../store';
import { RouteHeading } from './RouteHeading';
import { useBrowserSession } from './sign-in/browser-session';

/** SPEC §2/§4 logout: signs out once on arrival (auth/session-steps.ts signOut), then to the sign-in route. */
export function Component() {
  const site = useSiteLocation();
  const { search } = useLocation();
  const navigate = useNavigate();
  const session = useBrowserSession();
  const userType = useSelector((state: RootState) => userTypeInState(state.auth));
  const text = useText('signIn');
  // Once per visit, even when React runs effects twice (StrictMode keeps refs across that).
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void signOut(session, site, userType).then(() => navigate(`${site.basePath}${signInRoute(FEATURE_FLAGS)}${search}`, { replace: true }));
  }, [session, site, userType, search, navigate]);

  return (
    <section className="sign-in" aria-busy="true">
      <RouteHeading route="logout" />
      <p role="status">{text('logout.signingOut')}</p>
    </section>
  );
}
