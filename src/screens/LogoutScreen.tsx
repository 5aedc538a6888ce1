import { RouteHeading } from './RouteHeading';

/** SPEC §2 logout: sign out. */
export function Component() {
  return (
    <section>
      <RouteHeading route="logout" />
    </section>
  );
}
