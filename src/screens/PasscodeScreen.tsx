import { useDispatch } from 'react-redux';
import { useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import type { SiteFormData } from '../../widgets/SiteForm';
import { isCodeSpent } from '../api/gateway-error';
import { useCheckRecoveryCodeMutation } from '../api/user-mgmt-api';
import { recoveryCodeChecked } from '../app/recovery-slice';
import { useFormTexts } from '../content/use-form-texts';
import { useText } from '../content/use-text';
import { useSiteLocation } from '../site/use-site-location';
import { AccountForm } from './account/AccountForm';
import { useAccountRefusal } from './account/use-account-refusal';
import { useRecoveryStep } from './account/use-recovery';
import { RouteHeading } from './RouteHeading';
import { useSiteFormSchema } from './shared/use-site-form';

/**
 * SPEC §2 passcode (step-by-step recovery): the site's `passcode` form, checked with `find-code`
 * (ADR 0009). An accepted code is kept in memory so reset-password asks only for the new password.
 */
export function Component() {
  const { siteId, basePath } = useSiteLocation();
  const { search } = useLocation();
  const navigate = useNavigate();
  const dispatch = useDispatch();
  const email = useRecoveryStep()?.email ?? null;
  const form = useSiteFormSchema('passcode');
  const formTexts = useFormTexts();
  const text = useText('account');
  const [checkCode, { isLoading }] = useCheckRecoveryCodeMutation();
  const refusal = useAccountRefusal();
  // ADR 0008 OTP_SPENT, as at the sign-in passcode step: a spent code never passes, so the submit button rests and
  // the way to a new code is what is left.
  const [codeSpent, setCodeSpent] = useState(false);

  if (email === null) return <Navigate to={`${basePath}recovery${search}`} replace />;

  const submit = async (data: SiteFormData) => {
    refusal.clear();
    const passcode = String(data.passcode ?? '');
    const answer = await checkCode({ siteId, email, passcode });
    if (answer.error) {
      refusal.refuse(answer.error);
      setCodeSpent(isCodeSpent(answer.error));
      return;
    }
    dispatch(recoveryCodeChecked({ passcode }));
    void navigate(`${basePath}reset-password${search}`);
  };

  return (
    <section className="sign-in" aria-busy={isLoading}>
      <RouteHeading route="passcode" focusOnMount />
      <p className="sign-in__intro" role="status">
        {text('recovery.codeSent')} {text('passcode.intro')}
      </p>
      <AccountForm
        form={form}
        formTexts={formTexts}
        refusal={refusal}
        onSubmit={(data) => void submit(data)}
        submitText={text('passcode.submit')}
        disabled={isLoading || codeSpent}
      />
      <p className="sign-in__links">
        <Link to={`${basePath}passcode-preference${search}`}>{text('recovery.newCode')}</Link>
        <Link to={`${basePath}recovery${search}`}>{text('recovery.startOver')}</Link>
      </p>
    </section>
  );
}
