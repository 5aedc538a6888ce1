import { RouteHeading } from './RouteHeading';

/** SPEC §2 activate: account activation. */
export function Component() {
  return (
    <section>
      <RouteHeading route="activate" />
    </section>
  );
}
