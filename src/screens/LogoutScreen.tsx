import { useEffect, useRef } from 'react';
import { useText } from '../content/use-text';
import { RouteHeading } from './RouteHeading';
import { useSignOut } from './shared/use-sign-out';

/** SPEC §2/§4 logout: signs out once on arrival (auth/session-steps.ts signOut), then to the sign-in route. */
export function Component() {
  const signOut = useSignOut();
  const text = useText('signIn');
  // Once per visit, even when React runs effects twice (StrictMode keeps refs across that).
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void signOut();
  }, [signOut]);

  return (
    <section className="sign-in" aria-busy="true">
      <RouteHeading route="logout" />
      <p role="status">{text('logout.signingOut')}</p>
    </section>
  );
}
