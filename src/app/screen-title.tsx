import { createContext, useCallback, useContext, useEffect, useState } from 'react';
import { localeDirection } from '../../schemas/locales/locale-table';
import { useGetActingForQuery } from '../api/concierge-api';
import { useIsConcierge } from '../auth/use-is-concierge';
import { textOf } from '../content/texts';
import { useContentTexts } from '../content/use-content-texts';
import { actingForName } from '../screens/concierge/acting-for-name';
import { useSiteLocation } from '../site/use-site-location';
import type { AccountRoute } from './route-names';

/**
 * SPEC §2 page title (brand - title - brand) follows the screen shown, not only the route: a step that replaces
 * its route's form ("Check your e-mail" after "Add your card", two-step verification once it is on) names itself
 * in the tab as in its heading. The screen's one heading registers its text here while it is shown; without one,
 * the route's title stands.
 */
type ScreenTitleSetter = (id: object, text: string | null) => void;

const ScreenTitleContext = createContext<ScreenTitleSetter>(() => undefined);
export const ScreenTitleProvider = ScreenTitleContext.Provider;

/** The root screen's hold on the shown screen's title (RootScreen), and the setter its provider gives the screens. */
export function useScreenTitleHolder(): { screenTitle: string | null; setScreenTitle: ScreenTitleSetter } {
  const [current, setCurrent] = useState<{ id: object; text: string } | null>(null);
  // A heading that goes clears only its own title: the next screen's heading may have registered already.
  const setScreenTitle = useCallback<ScreenTitleSetter>(
    (id, text) => setCurrent((shown) => (text !== null ? { id, text } : shown?.id === id ? null : shown)),
    [],
  );
  return { screenTitle: current?.text ?? null, setScreenTitle };
}

/** Registers `text` as the title of the screen shown, for as long as the calling heading is mounted. */
export function useScreenTitle(text: string): void {
  const set = useContext(ScreenTitleContext);
  const [id] = useState(() => ({}));
  useEffect(() => {
    set(id, text);
  }, [set, id, text]);
  useEffect(() => () => set(id, null), [set, id]);
}

/**
 * The title of a route (content `common.title.{route}`). While a support agent acts for a card holder (ADR 0014),
 * the holder's screens are named for the holder, "Emily Carter's profile" rather than "My profile" (useAgentTitle);
 * every other route keeps its title.
 */
export function useRouteTitle(): (route: AccountRoute) => string {
  const common = useContentTexts('common');
  const agentTitle = useAgentTitle();
  return (route) => agentTitle(route) ?? textOf(common, `title.${route}`, '');
}

/**
 * For an agent acting for a card holder, a holder's screen named for the holder, from `common.agentTitle.{route}`;
 * null for anyone else and for a route the content names no other way.
 */
export function useAgentTitle(): (route: AccountRoute) => string | null {
  const { siteId, locale } = useSiteLocation();
  const common = useContentTexts('common');
  const concierge = useIsConcierge();
  const actingFor = useGetActingForQuery({ siteId }, { skip: !concierge }).data ?? null;
  return (route) => {
    if (actingFor === null || common[`agentTitle.${route}`] === undefined) return null;
    const name = actingForName(actingFor);
    // Unicode isolates (UAX #9), not an element: the text is the tab's title too. On a right-to-left page a Latin
    // name keeps its own order and does not pull the Arabic words around it into its run.
    return textOf(common, `agentTitle.${route}`, '', { name: localeDirection(locale) === 'rtl' ? `\u2068${name}\u2069` : name });
  };
}
