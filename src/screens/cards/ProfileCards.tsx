import { Link } from 'react-router-dom';
import { cardEntriesOf } from '../../../schemas/cards/card-assets';
import { ReadOnlyCardList } from '../../../widgets/cards/ReadOnlyCardList';
import { useGetCardsQuery } from '../../api/cards-api';
import { useIsConcierge } from '../../auth/use-is-concierge';
import { useSiteLocation } from '../../site/use-site-location';
import { cashbackTexts } from './card-widget-texts';
import { useCardModule } from './use-card-module';

/**
 * SPEC §2 "Read-only list" on the profile: each enrolled card masked as XXXX XXXX XXXX plus its
 * last four, a cashback badge per card when the site has cashback on, and the way to edit-pan (not for
 * a support agent, who never handles a card number: ADR 0014).
 */
export function ProfileCards() {
  const { siteId, basePath } = useSiteLocation();
  const module = useCardModule();
  const assets = useGetCardsQuery(siteId).data ?? [];
  const concierge = useIsConcierge();
  if (!module.ready) return null;
  const { text, config, productName } = module;
  const cards = cardEntriesOf(assets);
  return (
    <div className="profile-cards">
      {cards.length > 0 ? (
        <ReadOnlyCardList
          cards={cards}
          label={text('listLabel')}
          showCashback={config.cashbackEnabled}
          cashbackTexts={cashbackTexts(text)}
          productName={productName}
          pendingNote={text('status.pendingNote')}
          notEligibleNote={text('status.notEligibleNote')}
        />
      ) : (
        <p className="profile-cards__empty">{text('profile.empty')}</p>
      )}
      {!concierge && (
        <Link className="profile-cards__manage" to={`${basePath}edit-pan`}>
          {text('profile.manage')}
        </Link>
      )}
    </div>
  );
}
