import { RouteHeading } from './RouteHeading';

/** SPEC §2 otp-check-passcode: OTP check: passcode entry. */
export function Component() {
  return (
    <section>
      <RouteHeading route="otp-check-passcode" />
    </section>
  );
}
