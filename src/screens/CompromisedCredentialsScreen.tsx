import { RouteHeading } from './RouteHeading';

/** SPEC §2 compromised-credentials: compromised password handling. */
export function Component() {
  return (
    <section>
      <RouteHeading route="compromised-credentials" />
    </section>
  );
}
