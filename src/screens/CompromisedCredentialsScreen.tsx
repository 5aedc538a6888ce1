import { useMemo } from 'react';
import { useDispatch } from 'react-redux';
import type { SiteFormData } from '../../widgets/SiteForm';
import { formWithoutFields } from '../account/form-without-fields';
import { useReplaceCompromisedPasswordMutation } from '../api/user-mgmt-api';
import { notificationShown } from '../app/alerts-slice';
import { useFormTexts } from '../content/use-form-texts';
import { useText } from '../content/use-text';
import { useSiteLocation } from '../site/use-site-location';
import { AccountForm } from './account/AccountForm';
import { useAccountRefusal } from './account/use-account-refusal';
import { RouteHeading } from './RouteHeading';
import { useGoOnAfterSignIn } from './shared/browser-session';
import { useFreshProof } from './shared/use-fresh-proof';
import { useSiteFormSchema } from './shared/use-site-form';

/**
 * SPEC §2 compromised-credentials: the sign-in answered `passwordCompromised` (the password is on
 * the breached list, ADR 0009), so the person sets a new one before going on. The site's
 * `reset-password` form without the passcode (the session stands for it), posted to
 * `vba/compromised-password`; then on to the returnurl or /profile with the password-updated notice.
 */
export function Component() {
  const { siteId, basePath } = useSiteLocation();
  const dispatch = useDispatch();
  const siteForm = useSiteFormSchema('reset-password');
  const form = useMemo(() => (siteForm ? formWithoutFields(siteForm, ['passcode']) : null), [siteForm]);
  const formTexts = useFormTexts();
  const text = useText('account');
  const common = useText('common');
  const [replacePassword, { isLoading }] = useReplaceCompromisedPasswordMutation();
  const refusal = useAccountRefusal();
  const goOn = useGoOnAfterSignIn();
  const freshProof = useFreshProof();

  const submit = async (data: SiteFormData) => {
    refusal.clear();
    // ADR 0025: past the sign-in's 10 minutes (a refreshed session, a shared computer) the gateway asks the
    // person to confirm it's them before a new password; the typed one is sent again after the code.
    const answer = await freshProof.run(() =>
      replacePassword({ siteId, password: String(data.password ?? ''), confirm_password: String(data.confirm_password ?? '') }),
    );
    if (answer === null) return;
    if (answer.error) {
      refusal.refuse(answer.error);
      return;
    }
    dispatch(notificationShown({ id: 'password-updated', kind: 'success', message: common('notice.passwordUpdated'), lifetime: 'next-page' }));
    goOn(basePath);
  };

  return (
    <section className="sign-in" aria-busy={isLoading}>
      <RouteHeading route="compromised-credentials" focusOnMount />
      <p className="sign-in__intro">{text('compromised.intro')}</p>
      {freshProof.view}
      <AccountForm
        form={form}
        formTexts={formTexts}
        refusal={refusal}
        onSubmit={(data) => void submit(data)}
        submitText={text('compromised.submit')}
        disabled={isLoading}
      />
    </section>
  );
}
