import { RouteHeading } from './RouteHeading';

/** SPEC §2 login-otp-preference: where the OTP is sent. */
export function Component() {
  return (
    <section>
      <RouteHeading route="login-otp-preference" />
    </section>
  );
}
