import { useSelector } from 'react-redux';
import type { UserProfile } from '../../../schemas/entities/user-profile';
import { useGetProfileQuery } from '../../api/user-mgmt-api';
import { userTypeInState } from '../../auth/auth-machine';
import { useSiteLocation } from '../../site/use-site-location';
import type { RootState } from '../../store';

/** The signed-in user's profile (preloaded by the route loader, SPEC §2); null while unknown. */
export function useSignedInProfile(): UserProfile | null {
  const { siteId } = useSiteLocation();
  const concierge = useSelector((state: RootState) => userTypeInState(state.auth) === 'CONCIERGE');
  return useGetProfileQuery({ siteId, concierge }).data ?? null;
}
