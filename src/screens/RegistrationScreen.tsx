import { RouteHeading } from './RouteHeading';

/** SPEC §2 registration: registration. */
export function Component() {
  return (
    <section>
      <RouteHeading route="registration" />
    </section>
  );
}
