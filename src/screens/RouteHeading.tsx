import { useEffect, useRef } from 'react';
import type { AccountRoute } from '../app/route-names';
import { useRouteTitle, useScreenTitle } from '../app/screen-title';

/**
 * A screen's title, its one h1: the route's (`title.{route}`, named for the card holder an agent acts for, ADR 0014),
 * or `title` when the screen is in a state its route's title does not name. The tab's title follows it (SPEC §2 page
 * title, app/screen-title.tsx). `focusOnMount` moves focus to it when a step of a flow replaces the previous one, so
 * screen readers announce the new step.
 */
export function RouteHeading({ route, title, focusOnMount = false }: { route: AccountRoute; title?: string; focusOnMount?: boolean }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const text = useRouteTitle()(route);
  const shown = title ?? text;
  useScreenTitle(shown);
  useEffect(() => {
    if (focusOnMount) ref.current?.focus();
  }, [focusOnMount]);
  return (
    <h1 ref={ref} className="shell__title" tabIndex={focusOnMount ? -1 : undefined}>
      {shown}
    </h1>
  );
}
