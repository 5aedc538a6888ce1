import { RouteHeading } from './RouteHeading';

/** SPEC §2 redirect-sso: SSO entry. */
export function Component() {
  return (
    <section>
      <RouteHeading route="redirect-sso" />
    </section>
  );
}
