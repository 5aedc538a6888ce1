import { useState } from 'react';
import type { SiteFormData } from '../../widgets/SiteForm';
import { useKeptFlowStep } from '../account/use-kept-flow-step';
import { useResendActivationMutation } from '../api/user-mgmt-api';
import { useFormTexts } from '../content/use-form-texts';
import { useText } from '../content/use-text';
import { useSiteLocation } from '../site/use-site-location';
import { CheckEmailNotice } from './account/CheckEmailNotice';
import { AccountForm } from './account/AccountForm';
import { useAccountRefusal } from './account/use-account-refusal';
import { RouteHeading } from './RouteHeading';
import { useSiteFormSchema } from './shared/use-site-form';

/**
 * SPEC §2 resend-activation: an e-mail address (the site's `recovery` form, the one e-mail form)
 * posted to `activation-email`; the answer is always the same "check your e-mail" (ADR 0009). That answer is the
 * flow's step, kept for this tab (ADR 0019 "Flow steps"): a reload or Back/Forward shows it again instead of an empty
 * form, so nobody asks again and waits for a second mail; signing in ends the flow.
 */
export function Component() {
  const { siteId, locale } = useSiteLocation();
  const form = useSiteFormSchema('recovery');
  const formTexts = useFormTexts();
  const text = useText('account');
  const [resend, { isLoading }] = useResendActivationMutation();
  const refusal = useAccountRefusal();
  const [sentNow, setSent] = useState(false);
  const sent = useKeptFlowStep('activation-resend', sentNow ? { sent: true } : null, (kept) => (kept.sent === true ? { sent: true } : null)) !== null;

  const submit = async (data: SiteFormData) => {
    refusal.clear();
    const answer = await resend({ siteId, locale, email: String(data.email ?? '') });
    if (answer.error) refusal.refuse(answer.error);
    else setSent(true);
  };

  return (
    <section className="sign-in" aria-busy={isLoading}>
      {sent ? (
        <CheckEmailNotice message={text('resend.checkEmail')} />
      ) : (
        <>
          <RouteHeading route="resend-activation" />
          <p className="sign-in__intro">{text('resend.intro')}</p>
          <AccountForm
            form={form}
            formTexts={formTexts}
            refusal={refusal}
            onSubmit={(data) => void submit(data)}
            submitText={text('resend.submit')}
            disabled={isLoading}
          />
        </>
      )}
    </section>
  );
}
