import { RouteHeading } from './RouteHeading';

/** SPEC §2 login-otp: OTP sign-in step. */
export function Component() {
  return (
    <section>
      <RouteHeading route="login-otp" />
    </section>
  );
}
