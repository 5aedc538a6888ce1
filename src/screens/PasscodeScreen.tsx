import { RouteHeading } from './RouteHeading';

/** SPEC §2 passcode: step-by-step recovery: passcode entry. */
export function Component() {
  return (
    <section>
      <RouteHeading route="passcode" />
    </section>
  );
}
