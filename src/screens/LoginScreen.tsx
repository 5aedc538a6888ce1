import { useEffect, useMemo, useState } from 'react';
import { useDispatch } from 'react-redux';
import { successNoticesHidden } from '../app/alerts-slice';
import { Link, useLocation } from 'react-router-dom';
import { SiteForm, type SiteFormData } from '../../widgets/SiteForm';
import type { TextRef } from '../api/gateway-error';
import { useLogInMutation } from '../api/user-auth-api';
import { nextSignInStep } from '../auth/sign-in-flow';
import { signInEnded } from '../auth/sign-in-slice';
import { useFormTexts } from '../content/use-form-texts';
import { useText } from '../content/use-text';
import { useSiteLocation } from '../site/use-site-location';
import { RouteHeading } from './RouteHeading';
import { takeSessionEnd, type SessionEnd } from '../auth/session-end-notice';
import { takeSignedOutMark } from '../auth/signed-out-mark';
import { FormAlert } from './shared/FormAlert';
import { RefusalAlert } from './shared/RefusalAlert';
import { RetryAnnouncement } from './shared/RetryAnnouncement';
import { retryWaitOf, useRetryCountdown, waitTextKeyOf } from './shared/use-retry-countdown';
import { useSiteFormSchema } from './shared/use-site-form';
import { SiteCarousel } from './sign-in/SiteCarousel';
import { useKeptPasscodeStep, useSignInSteps } from './sign-in/use-sign-in-steps';

/**
 * SPEC §2 login and login-form: the site's `login` form (SiteForm), posted as §3's multipart login
 * payload to `user-auth/login` (ADR 0008). The answer decides the next step (auth/sign-in-flow.ts);
 * a refusal shows as a form-level alert without a reload.
 */
export function Component() {
  const { route, siteId, locale, basePath } = useSiteLocation();
  const location = useLocation();
  const { search } = location;
  const dispatch = useDispatch();
  const form = useSiteFormSchema('login');
  const formTexts = useFormTexts();
  const signInText = useText('signIn');
  const [logIn, { isLoading }] = useLogInMutation();
  const goToStep = useSignInSteps();
  const [refusal, setRefusal] = useState<TextRef | null>(null);
  const wait = useRetryCountdown();
  // A reload on the passcode step comes back here (the password is never kept): the user name is filled in again.
  const kept = useKeptPasscodeStep();
  // After a password reset the address just reset is filled in (ResetPasswordScreen's history state).
  const resetFor = (location.state as { signInAs?: unknown } | null)?.signInAs;
  const knownUsername = kept?.username ?? (typeof resetFor === 'string' ? resetFor : null);
  const formData = useMemo(() => (knownUsername === null ? undefined : { username: knownUsername }), [knownUsername]);

  // Coming back to the first step starts afresh: login data of an abandoned attempt is dropped.
  useEffect(() => {
    dispatch(signInEnded());
  }, [dispatch]);
  // A sign-out just made is said once (auth/signed-out-mark.ts): a reload of this page does not say it again.
  const [signedOut, setSignedOut] = useState(false);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- tab storage is read after hydration, never while the server renders the page
    if (takeSignedOutMark(siteId)) setSignedOut(true);
  }, [siteId]);
  // A session a new password ended on another device is told why, once (auth/session-end-notice.ts).
  const [sessionEnded, setSessionEnded] = useState<SessionEnd | null>(null);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- tab storage is read after hydration, never while the server renders the page
    setSessionEnded(takeSessionEnd());
  }, []);
  // ADR 0008 limits: once the wait the gateway asked for is over, its alert goes and the form is back.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the countdown is a timer outside React; its end takes the alert away
    if (wait.phase === 'ready') setRefusal(null);
  }, [wait.phase]);

  const submit = async (data: SiteFormData) => {
    setRefusal(null);
    dispatch(successNoticesHidden());
    const credentials = { username: String(data.username ?? ''), password: String(data.password ?? '') };
    const answer = await logIn({ siteId, locale, ...credentials });
    const seconds = answer.error === undefined ? null : retryWaitOf(answer.error);
    if (seconds !== null) {
      wait.start(seconds);
      setRefusal({ group: 'signIn', key: waitTextKeyOf(answer.error) });
      return;
    }
    setRefusal(goToStep(nextSignInStep(answer), credentials));
  };

  return (
    <section className="sign-in" aria-busy={isLoading}>
      <RouteHeading route={route === 'login' ? 'login' : 'login-form'} />
      <p className="sign-in__intro">{signInText('login.intro')}</p>
      {kept !== null && (
        <FormAlert
          kind="info"
          message={signInText(kept.otpType === 'email' || kept.otpType === 'sms' ? 'login.passcodeStepKept' : 'login.passcodeStepKeptNoCodeSent')}
        />
      )}
      {signedOut && <FormAlert kind="info" message={signInText('login.signedOut')} />}
      {sessionEnded === 'password_changed' && <FormAlert kind="info" message={signInText('login.sessionEndedPasswordChanged')} />}
      {refusal && <RefusalAlert refusal={refusal} />}
      {form && (
        <SiteForm
          schema={form.schema}
          uiSchema={form.uiSchema}
          texts={formTexts}
          formData={formData}
          onSubmit={(data) => void submit(data)}
          submitText={signInText(isLoading ? 'login.submitting' : 'login.submit')}
          disabled={isLoading || wait.secondsLeft > 0}
        />
      )}
      {wait.secondsLeft > 0 && <p className="retry-wait">{signInText('retry.waiting', { seconds: wait.secondsLeft })}</p>}
      <RetryAnnouncement waiting={null} ready={wait.phase === 'ready' ? signInText('retry.ready') : null} />
      <p className="sign-in__links">
        <Link to={`${basePath}recovery${search}`}>{signInText('login.forgotPassword')}</Link>
        <Link to={`${basePath}registration${search}`}>{signInText('login.register')}</Link>
      </p>
      <SiteCarousel />
    </section>
  );
}
