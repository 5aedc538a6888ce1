import { RouteHeading } from './RouteHeading';

/** SPEC §2 recovery: request recovery e-mail. */
export function Component() {
  return (
    <section>
      <RouteHeading route="recovery" />
    </section>
  );
}
