import { RouteHeading } from './RouteHeading';

/** SPEC §2 edit-pan: manage cards. */
export function Component() {
  return (
    <section>
      <RouteHeading route="edit-pan" />
    </section>
  );
}
