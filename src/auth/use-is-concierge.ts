import { useSelector } from 'react-redux';
import type { RootState } from '../store';
import { userTypeInState } from './auth-machine';

/** SPEC §6: a support agent acting for a user reads that user's data through the concierge calls (§7). */
export function useIsConcierge(): boolean {
  return useSelector((state: RootState) => userTypeInState(state.auth) === 'CONCIERGE');
}
