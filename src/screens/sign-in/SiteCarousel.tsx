import { lazy, memo, Suspense } from 'react';
import { featureConfigOf } from '../../../schemas/site-config/types';
import { useGetSiteConfigQuery } from '../../api/site-config-api';
import { useSiteLocation } from '../../site/use-site-location';

/** SPEC §3 cms: the vpp tenant has the form layout; every other tenant shows the carousel. */
const FORM_LAYOUT_TENANT = 'vpp';

/** Its own chunk: a vpp site's sign-in never loads it, and no sign-in waits for it (ADR 0016 budgets). */
const CarouselOfSlides = lazy(() => import('./CarouselOfSlides'));

/**
 * SPEC §3's carousel on sign-in and registration, for a site whose cms tenant is not vpp. A memo, taking no props:
 * a screen's own render after hydration (useHydrated) must not reach the server-drawn carousel while its chunk
 * loads, or React drops that markup for the empty fallback and draws it again, moving the form twice (ADR 0024).
 */
export const SiteCarousel = memo(function SiteCarousel() {
  const { siteId } = useSiteLocation();
  const site = useGetSiteConfigQuery(siteId);
  if (!site.data || featureConfigOf(site.data, 'cms').tenant === FORM_LAYOUT_TENANT) return null;
  return (
    <Suspense fallback={null}>
      <CarouselOfSlides />
    </Suspense>
  );
});
