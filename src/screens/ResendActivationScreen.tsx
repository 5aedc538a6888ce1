import { RouteHeading } from './RouteHeading';

/** SPEC §2 resend-activation: resend activation e-mail. */
export function Component() {
  return (
    <section>
      <RouteHeading route="resend-activation" />
    </section>
  );
}
