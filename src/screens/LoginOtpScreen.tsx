import { useState } from 'react';
import { useSelector } from 'react-redux';
import { Link } from 'react-router-dom';
import { SiteForm, type SiteFormData } from '../../widgets/SiteForm';
import { useLogInMutation } from '../api/user-auth-api';
import { useSendCodeMutation } from '../api/user-mgmt-api';
import { FEATURE_FLAGS } from '../app/feature-flags';
import { nextSignInStep, refusalText as refusalOf, type TextRef } from '../auth/sign-in-flow';
import { useFormTexts } from '../content/use-form-texts';
import { useText } from '../content/use-text';
import { signInRoute } from '../routes/route-guards';
import { useSiteLocation } from '../site/use-site-location';
import type { RootState } from '../store';
import { RouteHeading } from './RouteHeading';
import { FormAlert } from './sign-in/FormAlert';
import { RecoveryCodeForm } from './sign-in/RecoveryCodeForm';
import { useRefusalText } from './sign-in/use-refusal-text';
import { useSignInSteps } from './sign-in/use-sign-in-steps';
import { useSiteFormSchema } from './sign-in/use-site-form';

type Notice = { kind: 'error'; text: TextRef } | { kind: 'success'; text: TextRef };

/**
 * SPEC §2 login-otp: the passcode step. The site's `otp` form (code and "trust this device"); the
 * submit re-sends the login data kept in memory with `otp`, `otp_type` and `trust_device` (§3,
 * ADR 0008). A code by e-mail or SMS can be sent again; an authenticator code cannot, but a person
 * without their phone can type one of their recovery codes instead.
 */
export function Component() {
  const pending = useSelector((state: RootState) => state.signIn.pending);
  const { basePath } = useSiteLocation();
  const form = useSiteFormSchema('otp');
  const formTexts = useFormTexts();
  const text = useText('signIn');
  const refusalText = useRefusalText();
  const [logIn, login] = useLogInMutation();
  const [sendCode, resend] = useSendCodeMutation();
  const goToStep = useSignInSteps();
  const [notice, setNotice] = useState<Notice | null>(null);
  const [withRecoveryCode, setWithRecoveryCode] = useState(false);

  // The guard let us in with login data; it is dropped the moment the sign-in finishes.
  if (pending === null || pending.otpType === null) return null;
  const { otpType } = pending;

  const submit = async (data: SiteFormData) => {
    setNotice(null);
    const trustDevice = data.trust_device === true;
    const credentials = { username: pending.username, password: pending.password };
    const answer = await logIn({ siteId: pending.siteId, locale: pending.locale, ...credentials, otp: String(data.otp ?? ''), otpType, trustDevice });
    const refusal = goToStep(nextSignInStep(answer), credentials, { trustedDevice: trustDevice });
    if (refusal) setNotice({ kind: 'error', text: refusal });
  };

  const signInWithRecoveryCode = async (recoveryCode: string) => {
    setNotice(null);
    const credentials = { username: pending.username, password: pending.password };
    const answer = await logIn({ siteId: pending.siteId, locale: pending.locale, ...credentials, recoveryCode, trustDevice: false });
    const refusal = goToStep(nextSignInStep(answer), credentials);
    if (refusal) setNotice({ kind: 'error', text: refusal });
  };

  const sendAgain = async () => {
    if (otpType === 'totp') return;
    setNotice(null);
    const answer = await sendCode({ siteId: pending.siteId, channel: otpType, purpose: 'login' });
    setNotice(answer.error ? { kind: 'error', text: refusalOf(answer.error) } : { kind: 'success', text: { group: 'signIn', key: 'otp.resent' } });
  };

  const intro =
    otpType === 'totp'
      ? text('otp.totpIntro')
      : pending.maskedDestination
        ? text(otpType === 'email' ? 'otp.sentToEmail' : 'otp.sentToPhone', { destination: pending.maskedDestination })
        : text('otp.sent');

  return (
    <section className="sign-in" aria-busy={login.isLoading}>
      <RouteHeading route="login-otp" focusOnMount />
      <p className="sign-in__intro">{withRecoveryCode ? text('otp.recoveryIntro') : intro}</p>
      {notice && <FormAlert kind={notice.kind} message={refusalText(notice.text)} />}
      {withRecoveryCode && <RecoveryCodeForm submitText={text('otp.recoverySubmit')} busy={login.isLoading} onSubmit={(code) => void signInWithRecoveryCode(code)} />}
      {form && !withRecoveryCode && (
        <SiteForm
          schema={form.schema}
          uiSchema={form.uiSchema}
          texts={formTexts}
          onSubmit={(data) => void submit(data)}
          submitText={text('otp.submit')}
          disabled={login.isLoading}
        />
      )}
      <p className="sign-in__links">
        {otpType === 'totp' && (
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setNotice(null);
              setWithRecoveryCode(!withRecoveryCode);
            }}
          >
            {text(withRecoveryCode ? 'otp.useAuthenticator' : 'otp.useRecoveryCode')}
          </button>
        )}
        {otpType !== 'totp' && (
          <button type="button" className="link-button" onClick={() => void sendAgain()} disabled={resend.isLoading}>
            {text('otp.resend')}
          </button>
        )}
        <Link to={`${basePath}${signInRoute(FEATURE_FLAGS)}`}>{text('otp.startOver')}</Link>
      </p>
    </section>
  );
}
