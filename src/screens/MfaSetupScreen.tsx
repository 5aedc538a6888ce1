import { RouteHeading } from './RouteHeading';

/** SPEC §2 mfa-setup: MFA setup. */
export function Component() {
  return (
    <section>
      <RouteHeading route="mfa-setup" />
    </section>
  );
}
