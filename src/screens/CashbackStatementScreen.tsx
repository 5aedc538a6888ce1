import { RouteHeading } from './RouteHeading';

/** SPEC §2 cashback-statement: cashback statement. */
export function Component() {
  return (
    <section>
      <RouteHeading route="cashback-statement" />
    </section>
  );
}
