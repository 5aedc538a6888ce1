import { RouteHeading } from './RouteHeading';

/** SPEC §2 edit-profile: profile edit. */
export function Component() {
  return (
    <section>
      <RouteHeading route="edit-profile" />
    </section>
  );
}
