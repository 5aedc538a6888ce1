import { RouteHeading } from './RouteHeading';

/** SPEC §2 otp-check-preference: OTP check: choose where the passcode goes. */
export function Component() {
  return (
    <section>
      <RouteHeading route="otp-check-preference" />
    </section>
  );
}
