import type { UserProfile } from '../../../schemas/entities/user-profile';
import { useGetProfileQuery } from '../../api/user-mgmt-api';
import { useIsConcierge } from '../../auth/use-is-concierge';
import { useSiteLocation } from '../../site/use-site-location';

/** The signed-in user's profile (preloaded by the route loader, SPEC §2); null while unknown. */
export function useSignedInProfile(): UserProfile | null {
  const { siteId } = useSiteLocation();
  const concierge = useIsConcierge();
  return useGetProfileQuery({ siteId, concierge }).data ?? null;
}
