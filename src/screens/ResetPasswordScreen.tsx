import { useMemo, useRef } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { SiteFormData } from '../../widgets/SiteForm';
import { dropFlowStep } from '../account/form-drafts';
import { formWithoutFields } from '../account/form-without-fields';
import { useResetPasswordMutation } from '../api/user-mgmt-api';
import { notificationShown } from '../app/alerts-slice';
import { FEATURE_FLAGS } from '../app/feature-flags';
import { recoveryEnded } from '../app/recovery-slice';
import { useFormTexts } from '../content/use-form-texts';
import { useText } from '../content/use-text';
import { signInRoute } from '../routes/route-guards';
import { useSiteLocation } from '../site/use-site-location';
import type { RootState } from '../store';
import { AccountForm } from './account/AccountForm';
import { useAccountRefusal } from './account/use-account-refusal';
import { useRecoveryStep, useStepByStepRecovery } from './account/use-recovery';
import { RouteHeading } from './RouteHeading';
import { useSiteFormSchema } from './shared/use-site-form';

/**
 * SPEC §2 reset-password: the site's `reset-password` form posted to
 * `change-password-from-passcode` (ADR 0009). In the current variant the form holds the passcode
 * too; in the step-by-step variant find-code accepted it already, so its field is left out and the
 * code kept in memory is sent. Success ends recovery and goes to sign-in with a notice. A reload keeps
 * this step (useRecoveryStep, ADR 0019 "Flow steps"), but not the checked code, a secret: the form then
 * asks for it again beside the new password and says why (find-code did not spend it, so it still works).
 * Without an e-mail asked for, the page says to ask for a code first and links there.
 */
export function Component() {
  const { siteId, basePath } = useSiteLocation();
  const { search } = useLocation();
  const navigate = useNavigate();
  const dispatch = useDispatch();
  const checkedPasscode = useSelector((state: RootState) => state.recovery.checkedPasscode);
  const step = useRecoveryStep();
  const email = step?.email ?? null;
  const stepByStep = useStepByStepRecovery();
  // The code is typed here in the current variant, and in the step-by-step one when the checked code was lost to a reload.
  const asksCode = !stepByStep || checkedPasscode === null;
  const siteForm = useSiteFormSchema('reset-password');
  const form = useMemo(() => (siteForm && !asksCode ? formWithoutFields(siteForm, ['passcode']) : siteForm), [siteForm, asksCode]);
  const formTexts = useFormTexts();
  const text = useText('account');
  const [resetPassword, { isLoading }] = useResetPasswordMutation();
  const refusal = useAccountRefusal();
  const common = useText('common');
  // Set before recovery's data is dropped, so the way to sign-in is not replaced by the notice below.
  const finished = useRef(false);

  // The route is open (SPEC §2), so a visitor may arrive before a code was asked for: the page says to ask for one, and
  // its link goes where that is done (the e-mail first; in the step-by-step variant, once it is known, the channel).
  const askFor = email === null ? 'recovery' : stepByStep && step?.channel === null ? 'passcode-preference' : null;
  // eslint-disable-next-line react-hooks/refs -- set in the submit handler just before recovery data is dropped, and read on the render that drop causes
  if (askFor !== null && !finished.current) {
    return (
      <section className="sign-in">
        <RouteHeading route="reset-password" />
        <p className="sign-in__intro">{text('reset.needsCode')}</p>
        <p className="sign-in__links">
          <Link to={`${basePath}${askFor}${search}`}>{text('reset.askForCode')}</Link>
        </p>
      </section>
    );
  }

  const submit = async (data: SiteFormData) => {
    if (email === null) return;
    refusal.clear();
    const answer = await resetPassword({
      siteId,
      email,
      passcode: asksCode ? String(data.passcode ?? '') : checkedPasscode,
      password: String(data.password ?? ''),
      confirm_password: String(data.confirm_password ?? ''),
    });
    if (answer.error) {
      refusal.refuse(answer.error);
      return;
    }
    finished.current = true;
    dispatch(recoveryEnded());
    dropFlowStep('recovery');
    dispatch(notificationShown({ id: 'password-reset', kind: 'success', message: common('notice.passwordReset'), lifetime: 'next-page' }));
    // The sign-in form starts with the address just reset (history state, this tab only; the password is never carried).
    void navigate(`${basePath}${signInRoute(FEATURE_FLAGS)}${search}`, { replace: true, state: { signInAs: email } });
  };

  return (
    <section className="sign-in" aria-busy={isLoading}>
      <RouteHeading route="reset-password" focusOnMount />
      <p className="sign-in__intro" role="status">
        {!stepByStep ? `${text('recovery.codeSent')} ${text('reset.intro')}` : asksCode ? text('reset.codeNotKept') : text('reset.introNewPassword')}
      </p>
      <AccountForm
        form={form}
        formTexts={formTexts}
        refusal={refusal}
        onSubmit={(data) => void submit(data)}
        submitText={text('reset.submit')}
        disabled={isLoading}
      />
      <p className="sign-in__links">
        {stepByStep && asksCode && <Link to={`${basePath}passcode-preference${search}`}>{text('recovery.newCode')}</Link>}
        <Link to={`${basePath}recovery${search}`}>{text('recovery.startOver')}</Link>
      </p>
    </section>
  );
}
