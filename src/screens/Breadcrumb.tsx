import { Link, useLocation } from 'react-router-dom';
import type { AccountRoute } from '../app/route-names';
import { useSignedInVisitor } from '../app/use-signed-in-visitor';
import { useText } from '../content/use-text';
import { useSiteLocation } from '../site/use-site-location';
import './breadcrumb.css';

/**
 * SPEC §2's "Back" breadcrumb (edit-pan), on every account screen so none is a dead end: a link
 * back to `to` (the profile), shown only when the guards let this visitor open it (a required
 * authenticator set-up, say, comes first; the account menu's Sign out is always there).
 */
export function Breadcrumb({ to = 'profile' }: { to?: AccountRoute }) {
  const { basePath } = useSiteLocation();
  const { search } = useLocation();
  const common = useText('common');
  const visitor = useSignedInVisitor();
  if (visitor === null || visitor.allowed([to]).length === 0) return null;
  return (
    <nav className="breadcrumb" aria-label={common('breadcrumb.label')}>
      <Link className="breadcrumb__link" to={`${basePath}${to}${search}`}>
        <span className="breadcrumb__arrow" aria-hidden="true">
          ←
        </span>
        {common('breadcrumb.back')}
      </Link>
    </nav>
  );
}
