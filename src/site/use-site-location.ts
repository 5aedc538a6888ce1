import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { resolveSite, type SiteLocation } from './resolve-site';

/** The resolved site, locale and route of the current URL (SPEC §1, §2). */
export function useSiteLocation(): SiteLocation {
  const { pathname, search } = useLocation();
  return useMemo(() => resolveSite({ host: window.location.host, pathname, search }), [pathname, search]);
}
