import { useSiteLocation } from '../site/use-site-location';
import { RouteHeading } from './RouteHeading';

/** SPEC §2 login and login-form: sign-in (login-form in client-server mode). Kept tiny: it is the most visited first load. */
export function Component() {
  const { route } = useSiteLocation();
  return (
    <section>
      <RouteHeading route={route === 'login' ? 'login' : 'login-form'} />
    </section>
  );
}
