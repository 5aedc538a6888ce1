import { useEffect, useState } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { useLocation, useNavigate } from 'react-router-dom';
import type { SiteFormData } from '../../widgets/SiteForm';
import { useSendRecoveryPasscodeMutation } from '../api/user-mgmt-api';
import { recoveryEnded, recoveryStarted } from '../app/recovery-slice';
import { useFormTexts } from '../content/use-form-texts';
import { useText } from '../content/use-text';
import { useSiteLocation } from '../site/use-site-location';
import type { RootState } from '../store';
import { AccountForm } from './account/AccountForm';
import { useAccountRefusal } from './account/use-account-refusal';
import { useStepByStepRecovery } from './account/use-recovery';
import { RouteHeading } from './RouteHeading';
import { useSiteFormSchema } from './shared/use-site-form';

/**
 * SPEC §2 recovery, first step of both variants: the site's `recovery` form (e-mail). The current
 * variant asks `send-passcode` now and goes on to reset-password (code and new password); the
 * step-by-step variant goes on to passcode-preference, where the person chooses e-mail or SMS
 * (ADR 0009). The e-mail is kept in memory for the next steps. An address already known on arrival (the
 * secure-account page's, ADR 0021) fills the form.
 */
export function Component() {
  const { siteId, locale, basePath } = useSiteLocation();
  const { search } = useLocation();
  const navigate = useNavigate();
  const dispatch = useDispatch();
  const stepByStep = useStepByStepRecovery();
  const form = useSiteFormSchema('recovery');
  const formTexts = useFormTexts();
  const text = useText('account');
  const [sendPasscode, { isLoading }] = useSendRecoveryPasscodeMutation();
  const refusal = useAccountRefusal();
  // Read before the first step starts afresh below; a stable object, so the form keeps what the person types.
  const knownEmail = useSelector((state: RootState) => state.recovery.email);
  const [prefilled] = useState(() => (knownEmail === null ? undefined : { email: knownEmail }));

  // Coming back to the first step starts afresh: a code checked in an abandoned attempt is dropped.
  useEffect(() => {
    dispatch(recoveryEnded());
  }, [dispatch]);

  const submit = async (data: SiteFormData) => {
    refusal.clear();
    const email = String(data.email ?? '');
    if (!stepByStep) {
      const answer = await sendPasscode({ siteId, locale, email });
      if (answer.error) {
        refusal.refuse(answer.error);
        return;
      }
    }
    dispatch(recoveryStarted({ email }));
    void navigate(`${basePath}${stepByStep ? 'passcode-preference' : 'reset-password'}${search}`);
  };

  return (
    <section className="sign-in" aria-busy={isLoading}>
      <RouteHeading route="recovery" />
      <p className="sign-in__intro">{text('recovery.intro')}</p>
      <AccountForm
        form={form}
        formTexts={formTexts}
        refusal={refusal}
        formData={prefilled}
        onSubmit={(data) => void submit(data)}
        submitText={text(stepByStep ? 'registration.continue' : 'recovery.submit')}
        disabled={isLoading}
      />
    </section>
  );
}
