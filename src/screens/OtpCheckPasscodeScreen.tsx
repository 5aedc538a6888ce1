import { useState } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Link } from 'react-router-dom';
import { SiteForm, type SiteFormData } from '../../widgets/SiteForm';
import { isCodeSpent, refusalText as refusalOf, type TextRef } from '../api/gateway-error';
import { useVerifyOtpMutation } from '../api/user-auth-api';
import { browserLocalStorage } from '../app/browser-storage';
import { notificationShown } from '../app/alerts-slice';
import { signInEnded } from '../auth/sign-in-slice';
import { rememberTrustedOtp, verifiedUntilSeconds } from '../auth/trusted-otp';
import { useFormTexts } from '../content/use-form-texts';
import { useIsolatedText } from '../content/use-isolated-text';
import { useText } from '../content/use-text';
import { useSiteLocation } from '../site/use-site-location';
import type { RootState } from '../store';
import { Breadcrumb } from './Breadcrumb';
import { RouteHeading } from './RouteHeading';
import { useGoOnAfterSignIn } from './shared/browser-session';
import { FormAlert } from './shared/FormAlert';
import { useRefusalText } from './shared/use-refusal-text';
import { useSiteFormSchema } from './shared/use-site-form';

/**
 * SPEC §2 otp-check-passcode (signed in): the code sent by otp-check-preference, checked by
 * `user-auth/otp/verify` (ADR 0008); a pass is remembered as otp_expiry (§4, §9) and the person
 * goes on to the returnurl or the profile. §8: nothing is handled globally on this page.
 */
export function Component() {
  const otpCheck = useSelector((state: RootState) => state.signIn.otpCheck);
  const { siteId, basePath } = useSiteLocation();
  const dispatch = useDispatch();
  const form = useSiteFormSchema('passcode');
  const formTexts = useFormTexts();
  const text = useText('signIn');
  const isolatedText = useIsolatedText('signIn');
  const common = useText('common');
  const refusalText = useRefusalText();
  const goOn = useGoOnAfterSignIn();
  const [verifyOtp, verifying] = useVerifyOtpMutation();
  const [refusal, setRefusal] = useState<TextRef | null>(null);
  // ADR 0008: a spent code (used, or its attempts used up) never passes; Verify rests until a new code is asked for.
  const [codeSpent, setCodeSpent] = useState(false);

  if (otpCheck === null) {
    // Reached without choosing where the code goes (a bookmark, a reload): that step comes first.
    return (
      <section className="sign-in">
        <Breadcrumb />
        <RouteHeading route="otp-check-passcode" />
        <p className="sign-in__intro">{text('otpCheck.noCodeSent')}</p>
        <Link to={`${basePath}otp-check-preference`}>{text('otpCheck.chooseChannel')}</Link>
      </section>
    );
  }

  const submit = async (data: SiteFormData) => {
    setRefusal(null);
    const answer = await verifyOtp({ siteId, otp: String(data.passcode ?? ''), otpType: otpCheck.channel });
    if (answer.error) {
      setRefusal(refusalOf(answer.error));
      setCodeSpent(isCodeSpent(answer.error));
      return;
    }
    const now = Date.now();
    rememberTrustedOtp(browserLocalStorage(), now, verifiedUntilSeconds(answer.data.verifiedUntil, now));
    dispatch(signInEnded());
    dispatch(notificationShown({ id: 'otp-verified', kind: 'success', message: common('notice.otpVerified'), lifetime: 'next-page' }));
    goOn(basePath);
  };

  return (
    <section className="sign-in" aria-busy={verifying.isLoading}>
      <Breadcrumb />
      <RouteHeading route="otp-check-passcode" focusOnMount />
      <p className="sign-in__intro">
        {otpCheck.maskedDestination
          ? isolatedText(otpCheck.channel === 'email' ? 'otp.sentToEmail' : 'otp.sentToPhone', { destination: otpCheck.maskedDestination })
          : text('otp.sent')}
      </p>
      {refusal && <FormAlert kind="error" message={refusalText(refusal)} />}
      {form && (
        <SiteForm
          schema={form.schema}
          uiSchema={form.uiSchema}
          texts={formTexts}
          onSubmit={(data) => void submit(data)}
          submitText={text('otp.submit')}
          disabled={verifying.isLoading || codeSpent}
        />
      )}
      {codeSpent && <Link to={`${basePath}otp-check-preference`}>{text('otp.resend')}</Link>}
    </section>
  );
}
