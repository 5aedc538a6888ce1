import { validateReturnUrl } from '../../schemas/validators/url';

/**
 * A `last_visited_path` the sign-in of `siteId` may land on (ADR 0015, ADR 0028): a return URL as `validateReturnUrl`
 * has it, under the site's own issuer segment (`/{siteId}/{locale}/…`, as the gateway's own landing
 * `/{siteId}/{locale}/account/profile`), and naming no other site by a `siteid` query parameter (SPEC §1 lets that
 * override the path). Another site's page would land the holder, signed in here, on a site they were not signed into.
 */
export function isPathOfSite(path: string, siteId: string): boolean {
  if (validateReturnUrl(path) !== null || !path.startsWith(`/${siteId}/`)) return false;
  const query = path.indexOf('?');
  if (query === -1) return true;
  const named = new URLSearchParams(path.slice(query + 1).split('#')[0]).getAll('siteid');
  return named.every((value) => value.trim().toLowerCase() === siteId);
}
