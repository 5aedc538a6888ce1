import { useLocation, useNavigate } from 'react-router-dom';
import { useStopActingMutation } from '../../api/concierge-api';
import { useSiteLocation } from '../../site/use-site-location';

/** ADR 0014: the agent stops acting for the card holder and goes back to the concierge screen. */
export function useStopActing(): { stop: () => Promise<void>; stopping: boolean } {
  const { siteId, basePath } = useSiteLocation();
  const { search } = useLocation();
  const navigate = useNavigate();
  const [stopActing, { isLoading }] = useStopActingMutation();
  const stop = async () => {
    const answer = await stopActing({ siteId });
    if (!answer.error) await navigate(`${basePath}concierge${search}`);
  };
  return { stop, stopping: isLoading };
}
