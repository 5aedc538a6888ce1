import { useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { isPasswordManagedHere } from '../../schemas/site-config/credential-offers';
import type { SiteFormData } from '../../widgets/SiteForm';
import { deleteAccountForm } from '../account/delete-account-form';
import { useGetSiteConfigQuery } from '../api/site-config-api';
import { useRemoveAccountMutation, useSendCodeMutation } from '../api/user-mgmt-api';
import { notificationShown } from '../app/alerts-slice';
import { useFormTexts } from '../content/use-form-texts';
import { useText } from '../content/use-text';
import { useSiteLocation } from '../site/use-site-location';
import { AccountForm } from './account/AccountForm';
import { useAccountRefusal } from './account/use-account-refusal';
import { Breadcrumb } from './Breadcrumb';
import { RouteHeading } from './RouteHeading';
import { FormAlert } from './shared/FormAlert';
import '../../widgets/widgets.css';
import './account/account.css';
import { useBrowserSession } from './shared/browser-session';
import { useFreshProof } from './shared/use-fresh-proof';
import { useSiteFormSchema } from './shared/use-site-form';
import { useSignOut } from './shared/use-sign-out';

/**
 * SPEC §2 delete-profile (the guard refuses it when allow_delete_profile is "false"): what will be
 * removed, then the proof that the person is here (ADR 0009 "Deletion: proof of presence"): the
 * current password, or on an SSO site (no password here, ADR 0015) a passcode mailed on request,
 * and the ticked "I understand". Confirming posts `remove-account`; then the session ends here too
 * (§4 sign-out steps, the mobile bridge hears `deleteProfile`) and the person lands on sign-in with
 * a notice. Cancel goes back to /profile. The gateway may also ask for fresh proof (a passcode or an
 * authenticator code, shared/use-fresh-proof); the password stays in the body and in the form meanwhile.
 */
export function Component() {
  const site = useSiteLocation();
  const { search } = useLocation();
  const session = useBrowserSession();
  const signOut = useSignOut();
  const text = useText('account');
  const common = useText('common');
  const formTexts = useFormTexts();
  const siteConfig = useGetSiteConfigQuery(site.siteId).data;
  const proof = siteConfig === undefined || isPasswordManagedHere(siteConfig) ? 'password' : 'passcode';
  const passwordForm = useSiteFormSchema('change-password');
  const passcodeForm = useSiteFormSchema('passcode');
  const proofForm = proof === 'password' ? passwordForm : passcodeForm;
  const form = useMemo(() => (proofForm ? deleteAccountForm(proofForm, proof) : null), [proofForm, proof]);
  const [removeAccount, { isLoading }] = useRemoveAccountMutation();
  const [sendCode, sending] = useSendCodeMutation();
  const [passcodeSent, setPasscodeSent] = useState(false);
  const refusal = useAccountRefusal();
  const freshProof = useFreshProof();

  const confirm = async (data: SiteFormData) => {
    refusal.clear();
    const answer = await freshProof.run(() =>
      removeAccount(
        proof === 'password'
          ? { siteId: site.siteId, password: String(data.currentPassword ?? '') }
          : { siteId: site.siteId, passcode: String(data.passcode ?? '') },
      ),
    );
    // Cancelled "Confirm it's you": the account stays, and so does what was typed.
    if (answer === null) return;
    if (answer.error) {
      refusal.refuse(answer.error);
      return;
    }
    await signOut('deleteProfile', () =>
      session.dispatch(notificationShown({ id: 'account-deleted', kind: 'success', message: common('notice.accountDeleted'), lifetime: 'next-page' })),
    );
  };

  const sendPasscode = async () => {
    refusal.clear();
    const answer = await sendCode({ siteId: site.siteId, channel: 'email', purpose: 'otp-check' });
    if (answer.error) refusal.refuse(answer.error);
    else setPasscodeSent(true);
  };

  return (
    <section className="sign-in" aria-busy={isLoading}>
      <Breadcrumb />
      <RouteHeading route="delete-profile" />
      <p className="sign-in__intro">{text('delete.intro')}</p>
      <ul className="delete-profile__removed">
        <li>{text('delete.profile')}</li>
        <li>{text('delete.cards')}</li>
        <li>{text('delete.sessions')}</li>
      </ul>
      <p className="sign-in__intro">{text(proof === 'password' ? 'delete.passwordIntro' : 'delete.passcodeIntro')}</p>
      {proof === 'passcode' && (
        <div className="account-actions">
          <button type="button" className="button button--secondary" onClick={() => void sendPasscode()} disabled={sending.isLoading}>
            {text('delete.sendPasscode')}
          </button>
        </div>
      )}
      {passcodeSent && <FormAlert kind="success" message={text('delete.passcodeSent')} />}
      {freshProof.view}
      <AccountForm
        form={form}
        formTexts={formTexts}
        refusal={refusal}
        onSubmit={(data) => void confirm(data)}
        submitText={text(isLoading ? 'delete.deleting' : 'delete.confirm')}
        disabled={isLoading}
      />
      <p className="sign-in__links">
        <Link to={`${site.basePath}profile${search}`}>{text('delete.cancel')}</Link>
      </p>
    </section>
  );
}
