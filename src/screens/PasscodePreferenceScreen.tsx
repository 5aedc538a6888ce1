import { RouteHeading } from './RouteHeading';

/** SPEC §2 passcode-preference: step-by-step recovery: where the passcode is sent. */
export function Component() {
  return (
    <section>
      <RouteHeading route="passcode-preference" />
    </section>
  );
}
