import { RouteHeading } from './RouteHeading';

/** SPEC §2 reset-password: set a new passcode. */
export function Component() {
  return (
    <section>
      <RouteHeading route="reset-password" />
    </section>
  );
}
