import type { CardCall, CardCallPath } from '../../schemas/api/contract';
import { cardCallPaths, cardModuleOptionsOf, MissingCardModuleOptionsError, type CardModuleOptions } from '../../schemas/cards/card-config';
import { featureConfigOf, type SiteConfig } from '../../schemas/site-config/types';
import type { Fixtures } from '../site-files/load-fixtures';

/** One route to register: its call and path (schemas/api/contract.ts) and the sites that call it. */
export interface CardCallRoute extends CardCallPath {
  siteIds: ReadonlySet<string>;
}

/** The module options of a site, or null when it configures no card calls. */
export function cardOptionsOf(site: SiteConfig): CardModuleOptions | null {
  try {
    return cardModuleOptionsOf(featureConfigOf(site, 'pan_capture'));
  } catch (error) {
    if (error instanceof MissingCardModuleOptionsError) return null;
    throw error;
  }
}

/**
 * Every distinct card call path of the fixtures (every site and the default site), so a site
 * whose `pan_capture` names other URLs is served at its own paths with no code change (DESIGN
 * "Adding a site = adding files"). A path answers only the sites that configure it.
 */
export function cardCallRoutes(fixtures: Fixtures): CardCallRoute[] {
  const routes = new Map<string, { call: CardCall; path: string; siteIds: Set<string> }>();
  const add = (call: CardCall, path: string, siteId: string) => {
    const key = `${call} ${path}`;
    const route = routes.get(key) ?? { call, path, siteIds: new Set<string>() };
    route.siteIds.add(siteId);
    routes.set(key, route);
  };
  for (const { config } of [...fixtures.sites.values(), fixtures.defaultSite]) {
    const options = cardOptionsOf(config);
    if (options === null) continue;
    for (const [call, path] of Object.entries(cardCallPaths(options, ':id')) as [CardCall, string][]) add(call, path, config.siteId);
  }
  return [...routes.values()];
}
