import { useLocation, useNavigate } from 'react-router-dom';
import { useGetActingForQuery, useStopActingMutation } from '../../api/concierge-api';
import { useIsConcierge } from '../../auth/use-is-concierge';
import { useText } from '../../content/use-text';
import { useSiteLocation } from '../../site/use-site-location';
import { actingForName } from './acting-for-name';
import './concierge.css';

/** ADR 0014: above every screen while a support agent acts for someone; nothing for anyone else. */
export function ConciergeBanner() {
  return useIsConcierge() ? <ActingForBanner /> : null;
}

function ActingForBanner() {
  const { siteId, basePath } = useSiteLocation();
  const { search } = useLocation();
  const navigate = useNavigate();
  const text = useText('concierge');
  const actingFor = useGetActingForQuery({ siteId }).data ?? null;
  const [stopActing, { isLoading }] = useStopActingMutation();
  if (actingFor === null) return null;

  const stop = async () => {
    const answer = await stopActing({ siteId });
    if (!answer.error) navigate(`${basePath}concierge${search}`);
  };

  return (
    <section className="concierge-banner" aria-label={text('banner.label')}>
      <p className="concierge-banner__text">
        <span className="concierge-banner__badge">{text('banner.label')}</span> {text('banner.actingFor', { name: actingForName(actingFor) })}
      </p>
      <button type="button" className="button button--secondary concierge-banner__stop" onClick={() => void stop()} disabled={isLoading}>
        {text('banner.stop')}
      </button>
    </section>
  );
}
