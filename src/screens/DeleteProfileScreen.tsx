import { RouteHeading } from './RouteHeading';

/** SPEC §2 delete-profile: delete account. */
export function Component() {
  return (
    <section>
      <RouteHeading route="delete-profile" />
    </section>
  );
}
