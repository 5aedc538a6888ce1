import { useGetActingForQuery } from '../../api/concierge-api';
import { useIsConcierge } from '../../auth/use-is-concierge';
import { useText } from '../../content/use-text';
import { useSiteLocation } from '../../site/use-site-location';
import { actingForName } from './acting-for-name';
import { useStopActing } from './use-stop-acting';
import './concierge.css';

/** ADR 0014: above every screen while a support agent acts for someone; nothing for anyone else. */
export function ConciergeBanner() {
  return useIsConcierge() ? <ActingForBanner /> : null;
}

function ActingForBanner() {
  const { siteId } = useSiteLocation();
  const text = useText('concierge');
  const actingFor = useGetActingForQuery({ siteId }).data ?? null;
  const { stop, stopping } = useStopActing();
  if (actingFor === null) return null;

  return (
    <section className="concierge-banner" aria-label={text('banner.label')}>
      <p className="concierge-banner__text">
        <span className="concierge-banner__badge">{text('banner.label')}</span> {text('banner.actingFor', { name: actingForName(actingFor) })}
      </p>
      <button type="button" className="button button--secondary concierge-banner__stop" onClick={() => void stop()} disabled={stopping}>
        {text('banner.stop')}
      </button>
    </section>
  );
}
