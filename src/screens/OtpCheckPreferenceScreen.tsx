import { useState } from 'react';
import { useDispatch } from 'react-redux';
import { useLocation, useNavigate } from 'react-router-dom';
import { refusalText as refusalOf, type TextRef } from '../api/gateway-error';
import { useGetPreferenceDetailsQuery, useSendCodeMutation, type PasscodeChannel } from '../api/user-mgmt-api';
import { browserLocalStorage } from '../app/browser-storage';
import { otpCheckCodeSent } from '../auth/sign-in-slice';
import { isTrustedOtpValid } from '../auth/trusted-otp';
import { useText } from '../content/use-text';
import { useSiteLocation } from '../site/use-site-location';
import { Breadcrumb } from './Breadcrumb';
import { RouteHeading } from './RouteHeading';
import { useGoOnAfterSignIn } from './shared/browser-session';
import { FormAlert } from './shared/FormAlert';
import { PasscodeChannelChoice } from './shared/PasscodeChannelChoice';
import { useSignedInProfile } from './shared/use-profile';
import { useRefusalText } from './shared/use-refusal-text';

/**
 * SPEC §2 otp-check-preference (signed in): a re-check before a sensitive step. While the trusted
 * OTP state is valid (§4, otp_expiry) nothing is asked; otherwise the person chooses e-mail or
 * SMS and `send-code { channel, purpose: "otp-check" }` sends the code for otp-check-passcode.
 */
export function Component() {
  const { siteId, basePath } = useSiteLocation();
  const { search } = useLocation();
  const navigate = useNavigate();
  const dispatch = useDispatch();
  const text = useText('signIn');
  const refusalText = useRefusalText();
  const goOn = useGoOnAfterSignIn();
  const profile = useSignedInProfile();
  const [trusted] = useState(() => isTrustedOtpValid(browserLocalStorage(), Date.now()));
  const info = useGetPreferenceDetailsQuery({ siteId, primaryUserIdentifier: profile?.primaryUserIdentifier ?? '' }, { skip: profile === null || trusted });
  const [sendCode, sending] = useSendCodeMutation();
  const [refusal, setRefusal] = useState<TextRef | null>(null);

  const choose = async (channel: PasscodeChannel, maskedDestination: string | null) => {
    setRefusal(null);
    const answer = await sendCode({ siteId, channel, purpose: 'otp-check' });
    if (answer.error) {
      setRefusal(refusalOf(answer.error));
      return;
    }
    dispatch(otpCheckCodeSent({ channel, maskedDestination }));
    void navigate(`${basePath}otp-check-passcode${search}`);
  };

  return (
    <section className="sign-in">
      <Breadcrumb />
      <RouteHeading route="otp-check-preference" />
      {trusted ? (
        <>
          <p className="sign-in__intro">{text('otpCheck.trusted')}</p>
          <button type="button" className="button button--primary" onClick={() => goOn(basePath)}>
            {text('otpCheck.continue')}
          </button>
        </>
      ) : (
        <>
          <p className="sign-in__intro">{text('otpCheck.intro')}</p>
          {refusal && <FormAlert kind="error" message={refusalText(refusal)} />}
          {info.isError && <FormAlert kind="error" message={refusalText({ group: 'errors', key: 'unexpected' })} />}
          {info.data && (
            <PasscodeChannelChoice info={info.data} busy={sending.isLoading} onChoose={(channel, destination) => void choose(channel, destination)} />
          )}
        </>
      )}
    </section>
  );
}
