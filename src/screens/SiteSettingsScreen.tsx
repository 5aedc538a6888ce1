import { RouteHeading } from './RouteHeading';

/** SPEC §2 site-settings: preferences. */
export function Component() {
  return (
    <section>
      <RouteHeading route="site-settings" />
    </section>
  );
}
