import { maskCardNumber } from '../../../schemas/validators/card-number';
import { useGetAssetsQuery } from '../../api/assets-api';
import { useText } from '../../content/use-text';
import { useSiteLocation } from '../../site/use-site-location';

/** SPEC §2 "Read-only list" on the profile: each enrolled card masked as XXXX XXXX XXXX plus its last four. */
export function ProfileCards() {
  const { siteId } = useSiteLocation();
  const text = useText('cards');
  const assets = useGetAssetsQuery(siteId).data ?? [];
  if (assets.length === 0) return null;
  return (
    <ul className="profile-cards" aria-label={text('cardNumber')}>
      {assets.map((asset) => (
        <li key={asset.assetId}>{maskCardNumber(asset.metadata.find((entry) => entry.name === 'LAST_FOUR')?.value ?? '')}</li>
      ))}
    </ul>
  );
}
