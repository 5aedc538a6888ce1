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
import { useRecoveryEmail, useStepByStepRecovery } from './account/use-recovery';
import { RouteHeading } from './RouteHeading';
import { useSiteFormSchema } from './shared/use-site-form';

/**
 * SPEC §2 reset-password: the site's `reset-password` form posted to
 * `change-password-from-passcode` (ADR 0009). In the current variant the form holds the passcode
 * too; in the step-by-step variant find-code accepted it already, so its field is left out and the
 * code kept in memory is sent. Success ends recovery and goes to sign-in with a notice. Without the
 * earlier steps (an e-mail asked for, a checked code) it points to them: after a reload the e-mail is
 * still known (useRecoveryEmail, ADR 0019 "Flow steps"), the checked code is not, so the step-by-step
 * variant points to the passcode step, where the code already sent still works.
 */
export function Component() {
  const { siteId, basePath } = useSiteLocation();
  const { search } = useLocation();
  const navigate = useNavigate();
  const dispatch = useDispatch();
  const checkedPasscode = useSelector((state: RootState) => state.recovery.checkedPasscode);
  const email = useRecoveryEmail();
  const stepByStep = useStepByStepRecovery();
  const siteForm = useSiteFormSchema('reset-password');
  const form = useMemo(() => (siteForm && stepByStep ? formWithoutFields(siteForm, ['passcode']) : siteForm), [siteForm, stepByStep]);
  const formTexts = useFormTexts();
  const text = useText('account');
  const [resetPassword, { isLoading }] = useResetPasswordMutation();
  const refusal = useAccountRefusal();
  const common = useText('common');
  // Set before recovery's data is dropped, so the way to sign-in is not replaced by the notice below.
  const finished = useRef(false);

  // The route is open (SPEC §2), so a visitor may arrive without the earlier steps: they are pointed there.
  const missingStep = email === null ? 'recovery' : stepByStep && checkedPasscode === null ? 'passcode' : null;
  // eslint-disable-next-line react-hooks/refs -- set in the submit handler just before recovery data is dropped, and read on the render that drop causes
  if (missingStep !== null && !finished.current) {
    return (
      <section className="sign-in">
        <RouteHeading route="reset-password" />
        <p className="sign-in__intro">{text('reset.needsCode')}</p>
        <p className="sign-in__links">
          <Link to={`${basePath}${missingStep}${search}`}>{common(`title.${missingStep}`)}</Link>
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
      passcode: stepByStep ? (checkedPasscode ?? '') : String(data.passcode ?? ''),
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
    void navigate(`${basePath}${signInRoute(FEATURE_FLAGS)}${search}`, { replace: true });
  };

  return (
    <section className="sign-in" aria-busy={isLoading}>
      <RouteHeading route="reset-password" focusOnMount />
      <p className="sign-in__intro" role="status">
        {stepByStep ? text('reset.introNewPassword') : `${text('recovery.codeSent')} ${text('reset.intro')}`}
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
        <Link to={`${basePath}recovery${search}`}>{text('recovery.startOver')}</Link>
      </p>
    </section>
  );
}
