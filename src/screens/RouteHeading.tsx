import { useEffect, useRef } from 'react';
import type { AccountRoute } from '../app/route-names';
import { textOf } from '../content/texts';
import { useContentTexts } from '../content/use-content-texts';

/**
 * A screen's title from content (`title.{route}`), its one h1. `focusOnMount` moves focus to it
 * when a step of a flow replaces the previous one, so screen readers announce the new step.
 */
export function RouteHeading({ route, focusOnMount = false }: { route: AccountRoute; focusOnMount?: boolean }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusOnMount) ref.current?.focus();
  }, [focusOnMount]);
  return (
    <h1 ref={ref} className="shell__title" tabIndex={focusOnMount ? -1 : undefined}>
      {textOf(useContentTexts('common'), `title.${route}`, '')}
    </h1>
  );
}
