import { RouteHeading } from './RouteHeading';

/** SPEC §2 sso-simulator: SSO simulator. */
export function Component() {
  return (
    <section>
      <RouteHeading route="sso-simulator" />
    </section>
  );
}
