import { useEffect, useState } from 'react';
import { useSelector } from 'react-redux';
import { Link } from 'react-router-dom';
import { SiteForm, type SiteFormData } from '../../widgets/SiteForm';
import { asGatewayError, isCodeSpent, refusalText as refusalOf, type TextRef } from '../api/gateway-error';
import { useLogInMutation } from '../api/user-auth-api';
import { useSendCodeMutation } from '../api/user-mgmt-api';
import { dropFlowStep } from '../account/form-drafts';
import { formWithoutFields } from '../account/form-without-fields';
import { FEATURE_FLAGS } from '../app/feature-flags';
import { nextSignInStep } from '../auth/sign-in-flow';
import { useFormTexts } from '../content/use-form-texts';
import { useIsolatedText } from '../content/use-isolated-text';
import { useText } from '../content/use-text';
import { signInRoute } from '../routes/route-guards';
import { useSiteLocation } from '../site/use-site-location';
import type { RootState } from '../store';
import { RouteHeading } from './RouteHeading';
import { RefusalAlert } from './shared/RefusalAlert';
import { RetryAnnouncement } from './shared/RetryAnnouncement';
import { retryWaitOf, useRetryCountdown, waitTextKeyOf } from './shared/use-retry-countdown';
import { useSiteFormSchema } from './shared/use-site-form';
import { BackupCodeForm } from './sign-in/BackupCodeForm';
import { useKeptPasscodeStep, useSignInSteps } from './sign-in/use-sign-in-steps';

type Notice = { kind: 'error'; text: TextRef } | { kind: 'success'; text: TextRef };

/**
 * After each new passcode the button rests and counts down (as the best sign-in pages do): the code
 * just sent is usually on its way (both stay valid, ADR 0008 "Codes asked for again"). The gateway's own
 * limit (5 sends in 15 minutes, Retry-After) still decides; this only keeps a double tap from
 * spending a send.
 */
const RESEND_COOL_DOWN_SECONDS = 30;

/**
 * SPEC §2 login-otp: the passcode step. The site's `otp` form (code and "trust this device"); the
 * submit re-sends the login data kept in memory with `otp`, `otp_type` and `trust_device` (§3,
 * ADR 0008). A code by e-mail or SMS can be sent again; an authenticator code cannot, but a person
 * without their phone can type one of their backup codes instead.
 *
 * The same step proves the mailbox of a breached password (ADR 0009 "Breached passwords"): the intro
 * says why, the code goes as `vba_token`, and "trust this device" is not offered, because the person
 * replaces the password next (compromised-credentials) and a new password asks no such proof.
 */
export function Component() {
  const pending = useSelector((state: RootState) => state.signIn.pending);
  const { basePath } = useSiteLocation();
  const form = useSiteFormSchema('otp');
  const formTexts = useFormTexts();
  const text = useText('signIn');
  const isolatedText = useIsolatedText('signIn');
  const [logIn, login] = useLogInMutation();
  const [sendCode, resend] = useSendCodeMutation();
  const goToStep = useSignInSteps();
  const [notice, setNotice] = useState<Notice | null>(null);
  // ADR 0008 limits: the waits the gateway asks for (Retry-After), one for checking a code, one for sending a new one.
  const checkWait = useRetryCountdown();
  const sendWait = useRetryCountdown();
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the countdown is a timer outside React; its end takes the alert away
    if (checkWait.phase === 'ready' || sendWait.phase === 'ready') setNotice(null);
  }, [checkWait.phase, sendWait.phase]);
  const [withBackupCode, setWithBackupCode] = useState(false);
  // A spent code can never pass: Verify rests until a new code is sent (ADR 0008).
  const [codeSpent, setCodeSpent] = useState(false);
  useKeptPasscodeStep();

  // The guard let us in with login data; it is dropped the moment the sign-in finishes.
  if (pending === null || pending.otpType === null) return null;
  const { otpType, breachedPassword } = pending;
  const shownForm = form && breachedPassword ? formWithoutFields(form, ['trust_device']) : form;

  const submit = async (data: SiteFormData) => {
    setNotice(null);
    const trustDevice = !breachedPassword && data.trust_device === true;
    const credentials = { username: pending.username, password: pending.password };
    const code = String(data.otp ?? '');
    const answer = await logIn({
      siteId: pending.siteId,
      locale: pending.locale,
      ...credentials,
      ...(breachedPassword ? { vbaToken: code } : { otp: code, otpType }),
      trustDevice,
    });
    const seconds = answer.error === undefined ? null : retryWaitOf(answer.error);
    if (seconds !== null) {
      checkWait.start(seconds);
      setNotice({ kind: 'error', text: { group: 'signIn', key: waitTextKeyOf(answer.error) } });
      return;
    }
    const refusal = goToStep(nextSignInStep(answer), credentials, { trustedDevice: trustDevice });
    if (refusal) setNotice({ kind: 'error', text: refusal });
    if (answer.error !== undefined && isCodeSpent(answer.error)) {
      setCodeSpent(true);
      // The gateway says when a new code will work (the spent attempts lapse): the send button counts down to it.
      const lapse = asGatewayError(answer.error).retryAfterSeconds;
      if (lapse !== undefined && lapse > 0) sendWait.start(lapse);
    }
  };

  const signInWithBackupCode = async (backupCode: string) => {
    setNotice(null);
    const credentials = { username: pending.username, password: pending.password };
    const answer = await logIn({ siteId: pending.siteId, locale: pending.locale, ...credentials, backupCode, trustDevice: false });
    const refusal = goToStep(nextSignInStep(answer), credentials);
    if (refusal) setNotice({ kind: 'error', text: refusal });
  };

  const sendAgain = async () => {
    if (otpType === 'totp') return;
    setNotice(null);
    const answer = await sendCode({ siteId: pending.siteId, channel: otpType, purpose: 'login' });
    const seconds = answer.error === undefined ? RESEND_COOL_DOWN_SECONDS : retryWaitOf(answer.error);
    if (seconds !== null) sendWait.start(seconds);
    if (answer.error === undefined) {
      setCodeSpent(false);
      setNotice({ kind: 'success', text: { group: 'signIn', key: 'otp.resent' } });
    }
    // The wait is counted on the button: the alert does not name another figure (minutes) for it.
    else
      setNotice({
        kind: 'error',
        text:
          seconds !== null && asGatewayError(answer.error).code === 'RATE_LIMITED'
            ? { group: 'signIn', key: 'error.rateLimitedWait' }
            : refusalOf(answer.error),
      });
  };

  const intro =
    otpType === 'totp'
      ? text('otp.totpIntro')
      : breachedPassword
        ? isolatedText('otp.breachedPasswordIntro', { destination: pending.maskedDestination ?? '' })
        : pending.maskedDestination
          ? isolatedText(otpType === 'email' ? 'otp.sentToEmail' : 'otp.sentToPhone', { destination: pending.maskedDestination })
          : text('otp.sent');

  return (
    <section className="sign-in" aria-busy={login.isLoading}>
      <RouteHeading route="login-otp" focusOnMount />
      <p className="sign-in__intro">{withBackupCode ? text('otp.backupCodeIntro') : intro}</p>
      {notice && <RefusalAlert kind={notice.kind} refusal={notice.text} />}
      {withBackupCode && (
        <BackupCodeForm submitText={text('otp.backupCodeSubmit')} busy={login.isLoading} onSubmit={(code) => void signInWithBackupCode(code)} />
      )}
      {shownForm && !withBackupCode && (
        <SiteForm
          schema={shownForm.schema}
          uiSchema={shownForm.uiSchema}
          texts={formTexts}
          onSubmit={(data) => void submit(data)}
          submitText={text('otp.submit')}
          disabled={login.isLoading || checkWait.secondsLeft > 0 || codeSpent}
        />
      )}
      {checkWait.secondsLeft > 0 && <p className="retry-wait">{text('retry.waiting', { seconds: checkWait.secondsLeft })}</p>}
      <RetryAnnouncement waiting={null} ready={checkWait.phase === 'ready' ? text('retry.ready') : null} />
      <p className="sign-in__links">
        {otpType === 'totp' && (
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setNotice(null);
              setWithBackupCode(!withBackupCode);
            }}
          >
            {text(withBackupCode ? 'otp.useAuthenticator' : 'otp.useBackupCode')}
          </button>
        )}
        {otpType !== 'totp' && (
          <button type="button" className="link-button" onClick={() => void sendAgain()} disabled={resend.isLoading || sendWait.secondsLeft > 0}>
            {sendWait.secondsLeft > 0 ? text('otp.resendIn', { seconds: sendWait.secondsLeft }) : text('otp.resend')}
          </button>
        )}
        <Link to={`${basePath}${signInRoute(FEATURE_FLAGS)}`} onClick={() => dropFlowStep('sign-in')}>
          {text('otp.startOver')}
        </Link>
      </p>
      <RetryAnnouncement
        waiting={sendWait.phase === 'waiting' ? text('otp.resendWaiting', { seconds: sendWait.startedWith }) : null}
        ready={sendWait.phase === 'ready' ? text('otp.resendReady') : null}
      />
    </section>
  );
}
