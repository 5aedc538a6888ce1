import { RouteHeading } from './RouteHeading';

/** SPEC §2 password: change password. */
export function Component() {
  return (
    <section>
      <RouteHeading route="password" />
    </section>
  );
}
