import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { SiteFormData } from '../../widgets/SiteForm';
import { useChangePasswordMutation } from '../api/user-mgmt-api';
import { useText } from '../content/use-text';
import { useFormTexts } from '../content/use-form-texts';
import { useSiteLocation } from '../site/use-site-location';
import { AccountForm } from './account/AccountForm';
import { useAccountRefusal } from './account/use-account-refusal';
import { Breadcrumb } from './Breadcrumb';
import { RouteHeading } from './RouteHeading';
import { useFreshProof } from './shared/use-fresh-proof';
import { useSiteFormSchema } from './shared/use-site-form';

/**
 * SPEC §2 password (signed in): the site's `change-password` form with the password rules
 * checklist, posted to `change-password` (ADR 0009). CURRENT_PASSWORD_INCORRECT shows §8's "Current
 * password is incorrect." under the current-password field; PASSWORD_REUSED and PASSWORD_COMPROMISED
 * say why the new one cannot be used. Success goes to /profile with `editPw` (§2 password-updated notice).
 * A new password lets its holder own the account, so the gateway may first ask the person to confirm
 * it's them (shared/use-fresh-proof): the dialog opens over the form and the same change goes again.
 */
export function Component() {
  const { siteId, basePath } = useSiteLocation();
  const { search } = useLocation();
  const navigate = useNavigate();
  const form = useSiteFormSchema('change-password');
  const formTexts = useFormTexts();
  const text = useText('account');
  const common = useText('common');
  const [changePassword, { isLoading }] = useChangePasswordMutation();
  const refusal = useAccountRefusal();
  const freshProof = useFreshProof();

  const submit = async (data: SiteFormData) => {
    refusal.clear();
    const answer = await freshProof.run(() =>
      changePassword({
        siteId,
        currentPassword: String(data.currentPassword ?? ''),
        password: String(data.password ?? ''),
        confirm_password: String(data.confirm_password ?? ''),
      }),
    );
    // Cancelled "Confirm it's you": nothing changed, the typed passwords stay in the form.
    if (answer === null) return;
    if (answer.error) {
      refusal.refuse(answer.error);
      return;
    }
    const query = new URLSearchParams(search);
    query.set('editPw', 'true');
    void navigate(`${basePath}profile?${query.toString()}`);
  };

  return (
    <section className="sign-in" aria-busy={isLoading}>
      <Breadcrumb />
      <RouteHeading route="password" />
      <p className="sign-in__intro">{text('password.intro')}</p>
      {freshProof.view}
      <AccountForm
        form={form}
        formTexts={formTexts}
        refusal={refusal}
        onSubmit={(data) => void submit(data)}
        submitText={text('password.submit')}
        disabled={isLoading}
      />
      <p className="sign-in__links">
        <Link to={`${basePath}profile${search}`}>{common('button.cancel')}</Link>
      </p>
    </section>
  );
}
