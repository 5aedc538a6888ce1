import type { AccountRoute } from '../app/route-names';
import { textOf } from '../content/texts';
import { useContentTexts } from '../content/use-content-texts';

/** A screen's title from content (`title.{route}`), its one h1. */
export function RouteHeading({ route }: { route: AccountRoute }) {
  return <h1 className="shell__title">{textOf(useContentTexts('common'), `title.${route}`, '')}</h1>;
}
