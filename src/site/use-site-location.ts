import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { usePageOrigin } from '../app/page-context';
import { resolveSite, type SiteLocation } from './resolve-site';

/** The resolved site, locale and route of the current URL (SPEC §1, §2). */
export function useSiteLocation(): SiteLocation {
  const { pathname, search } = useLocation();
  const { host } = usePageOrigin();
  return useMemo(() => resolveSite({ host, pathname, search }), [host, pathname, search]);
}
