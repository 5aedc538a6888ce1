import { Link, useLocation } from 'react-router-dom';
import { useRemoveAccountMutation } from '../api/user-mgmt-api';
import { notificationShown } from '../app/alerts-slice';
import { useText } from '../content/use-text';
import { useSiteLocation } from '../site/use-site-location';
import { useAccountRefusal } from './account/use-account-refusal';
import { Breadcrumb } from './Breadcrumb';
import { RouteHeading } from './RouteHeading';
import { FormAlert } from './sign-in/FormAlert';
import '../../widgets/widgets.css';
import './account/account.css';
import { useBrowserSession } from './sign-in/browser-session';
import { useSignOut } from './sign-in/use-sign-out';

/**
 * SPEC §2 delete-profile (the guard refuses it when allow_delete_profile is "false"): what will be
 * removed, a confirm button and cancel to /profile. Confirming posts `remove-account` (ADR 0009);
 * then the session ends here too (§4 sign-out steps, the mobile bridge hears `deleteProfile`) and
 * the person lands on sign-in with a notice.
 */
export function Component() {
  const site = useSiteLocation();
  const { search } = useLocation();
  const session = useBrowserSession();
  const signOut = useSignOut();
  const text = useText('account');
  const common = useText('common');
  const [removeAccount, { isLoading }] = useRemoveAccountMutation();
  const refusal = useAccountRefusal();

  const confirm = async () => {
    refusal.clear();
    const answer = await removeAccount({ siteId: site.siteId });
    if (answer.error) {
      refusal.refuse(answer.error);
      return;
    }
    await signOut('deleteProfile', () =>
      session.dispatch(notificationShown({ id: 'account-deleted', kind: 'success', message: common('notice.accountDeleted') })),
    );
  };

  return (
    <section className="sign-in" aria-busy={isLoading}>
      <Breadcrumb />
      <RouteHeading route="delete-profile" />
      {refusal.alertMessage !== null && <FormAlert kind="error" message={refusal.alertMessage} />}
      <p className="sign-in__intro">{text('delete.intro')}</p>
      <ul className="delete-profile__removed">
        <li>{text('delete.profile')}</li>
        <li>{text('delete.cards')}</li>
        <li>{text('delete.sessions')}</li>
      </ul>
      <div className="account-actions">
        <button type="button" className="button button--danger" onClick={() => void confirm()} disabled={isLoading}>
          {text(isLoading ? 'delete.deleting' : 'delete.confirm')}
        </button>
        <Link className="button button--secondary" to={`${site.basePath}profile${search}`}>
          {text('delete.cancel')}
        </Link>
      </div>
    </section>
  );
}
