import { RouteHeading } from './RouteHeading';

/** SPEC §2 profile: profile view. */
export function Component() {
  return (
    <section>
      <RouteHeading route="profile" />
    </section>
  );
}
