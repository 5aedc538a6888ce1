import { useId, useState, type SubmitEvent } from 'react';
import { useDispatch } from 'react-redux';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { useSendRecoveryPasscodeMutation, type PasscodeChannel } from '../api/user-mgmt-api';
import { recoveryCodeSent } from '../app/recovery-slice';
import { useText } from '../content/use-text';
import { useSiteLocation } from '../site/use-site-location';
import { useAccountRefusal } from './account/use-account-refusal';
import { useRecoveryStep } from './account/use-recovery';
import { RouteHeading } from './RouteHeading';
import { FormAlert } from './shared/FormAlert';
import '../../widgets/widgets.css';

const CHANNELS: readonly PasscodeChannel[] = ['email', 'sms'];

/**
 * SPEC §2 passcode-preference (step-by-step recovery): e-mail or SMS, with no destinations shown,
 * so the page tells nothing about the account (ADR 0009). The choice goes to `send-passcode`; the
 * gateway falls back to e-mail when the account has no phone. Then on to passcode. Back here to ask for a new
 * code ("ask for a new code", a reload, Back), the channel chosen before is the one ticked: the flow keeps it.
 */
export function Component() {
  const { siteId, locale, basePath } = useSiteLocation();
  const { search } = useLocation();
  const navigate = useNavigate();
  const dispatch = useDispatch();
  const step = useRecoveryStep();
  const text = useText('account');
  const name = useId();
  // What the person ticks here, else what the flow kept (null on the server's page, which knew no step), else e-mail.
  const [ticked, setChannel] = useState<PasscodeChannel | null>(null);
  const channel = ticked ?? step?.channel ?? 'email';
  const [sendPasscode, { isLoading }] = useSendRecoveryPasscodeMutation();
  const refusal = useAccountRefusal();

  if (step === null) return <Navigate to={`${basePath}recovery${search}`} replace />;
  const { email } = step;

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    refusal.clear();
    const answer = await sendPasscode({ siteId, locale, email, channel });
    if (answer.error) {
      refusal.refuse(answer.error);
      return;
    }
    dispatch(recoveryCodeSent({ email, channel }));
    void navigate(`${basePath}passcode${search}`);
  };

  return (
    <section className="sign-in" aria-busy={isLoading}>
      <RouteHeading route="passcode-preference" focusOnMount />
      <p className="sign-in__intro">{text('preference.intro')}</p>
      {refusal.alertMessage !== null && <FormAlert kind="error" message={refusal.alertMessage} />}
      <form className="site-form passcode-channels" onSubmit={(event) => void submit(event)} noValidate>
        <fieldset className="passcode-channels__set">
          <legend className="passcode-channels__legend">{text('preference.legend')}</legend>
          {CHANNELS.map((option) => (
            <div className="check" key={option}>
              <input
                id={`${name}-${option}`}
                className="check__input"
                type="radio"
                name={name}
                value={option}
                checked={channel === option}
                onChange={() => setChannel(option)}
              />
              <label className="check__label" htmlFor={`${name}-${option}`}>
                {text(option === 'email' ? 'preference.email' : 'preference.sms')}
              </label>
            </div>
          ))}
        </fieldset>
        <div className="site-form__actions">
          <button type="submit" className="button button--primary" disabled={isLoading}>
            {text('preference.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
