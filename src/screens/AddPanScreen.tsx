import { RouteHeading } from './RouteHeading';

/** SPEC §2 add-pan: registration step to add a card. */
export function Component() {
  return (
    <section>
      <RouteHeading route="add-pan" />
    </section>
  );
}
