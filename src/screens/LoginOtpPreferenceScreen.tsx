import { useState } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { useLocation, useNavigate } from 'react-router-dom';
import { refusalText as refusalOf, type TextRef } from '../api/gateway-error';
import { useGetPreferenceDetailsQuery, useSendCodeMutation, type PasscodeChannel } from '../api/user-mgmt-api';
import { passcodeChannelChosen } from '../auth/sign-in-slice';
import { useText } from '../content/use-text';
import { useSiteLocation } from '../site/use-site-location';
import type { RootState } from '../store';
import { RouteHeading } from './RouteHeading';
import { useKeptPasscodeStep } from './sign-in/use-sign-in-steps';
import { FormAlert } from './shared/FormAlert';
import { PasscodeChannelChoice } from './shared/PasscodeChannelChoice';
import { useRefusalText } from './shared/use-refusal-text';

/**
 * SPEC §2 login-otp-preference (site `login_otp` "choice", ADR 0008 OTP_REQUIRED): the person
 * chooses e-mail or SMS, `send-code { channel, purpose: "login" }` sends the code, then login-otp.
 * The guard let us in with login data and the notification info (loaded by the route loader).
 */
export function Component() {
  const pending = useSelector((state: RootState) => state.signIn.pending);
  const { basePath } = useSiteLocation();
  const { search } = useLocation();
  const navigate = useNavigate();
  const dispatch = useDispatch();
  const text = useText('signIn');
  const refusalText = useRefusalText();
  const info = useGetPreferenceDetailsQuery(
    pending ? { siteId: pending.siteId, primaryUserIdentifier: pending.username } : { siteId: '', primaryUserIdentifier: '' },
    { skip: pending === null },
  );
  const [sendCode, sending] = useSendCodeMutation();
  const [refusal, setRefusal] = useState<TextRef | null>(null);
  useKeptPasscodeStep();

  if (pending === null || !info.data) return null;

  const choose = async (channel: PasscodeChannel, maskedDestination: string | null) => {
    setRefusal(null);
    const answer = await sendCode({ siteId: pending.siteId, channel, purpose: 'login' });
    if (answer.error) {
      setRefusal(refusalOf(answer.error));
      return;
    }
    dispatch(passcodeChannelChosen({ channel, maskedDestination }));
    void navigate(`${basePath}login-otp${search}`);
  };

  return (
    <section className="sign-in">
      <RouteHeading route="login-otp-preference" focusOnMount />
      <p className="sign-in__intro">{text('preference.intro')}</p>
      {refusal && <FormAlert kind="error" message={refusalText(refusal)} />}
      <PasscodeChannelChoice info={info.data} busy={sending.isLoading} onChoose={(channel, destination) => void choose(channel, destination)} />
    </section>
  );
}
