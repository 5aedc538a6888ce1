import { useId, useState, type SubmitEvent } from 'react';
import type { NotificationInfo, PasscodeChannel } from '../../api/user-mgmt-api';
import { useIsolatedText } from '../../content/use-isolated-text';
import { useText } from '../../content/use-text';
import '../../../widgets/widgets.css';
import './form-screens.css';

/**
 * Where a passcode goes (SPEC §2 login-otp-preference, otp-check-preference, the "Confirm it's you"
 * dialog): a radio choice of e-mail and SMS with the masked destinations of get-preference-details;
 * SMS only when the person has a phone, and only the channels the gateway allows when it names them
 * (`allowed`). Not a site form: the choice is the gateway's answer, not configuration.
 */
export function PasscodeChannelChoice({
  info,
  busy,
  onChoose,
  allowed,
}: {
  info: NotificationInfo;
  busy: boolean;
  onChoose: (channel: PasscodeChannel, maskedDestination: string | null) => void;
  allowed?: readonly PasscodeChannel[];
}) {
  const text = useText('signIn');
  const isolatedText = useIsolatedText('signIn');
  const name = useId();
  const channels = (['email', 'sms'] as const).filter(
    (channel) => (channel === 'email' ? info.email : info.phone) !== null && (allowed === undefined || allowed.includes(channel)),
  );
  const [chosen, setChosen] = useState<PasscodeChannel | null>(channels[0] ?? null);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (chosen !== null) onChoose(chosen, chosen === 'email' ? info.email : info.phone);
  };

  return (
    <form className="site-form passcode-channels" onSubmit={submit} noValidate>
      <fieldset className="passcode-channels__set">
        <legend className="passcode-channels__legend">{text('preference.legend')}</legend>
        {channels.map((channel) => (
          <div className="check" key={channel}>
            <input
              id={`${name}-${channel}`}
              className="check__input"
              type="radio"
              name={name}
              value={channel}
              checked={chosen === channel}
              onChange={() => setChosen(channel)}
            />
            <label className="check__label" htmlFor={`${name}-${channel}`}>
              {isolatedText(channel === 'email' ? 'preference.email' : 'preference.sms', {
                destination: (channel === 'email' ? info.email : info.phone) ?? '',
              })}
            </label>
          </div>
        ))}
      </fieldset>
      <div className="site-form__actions">
        <button type="submit" className="button button--primary" disabled={busy || chosen === null}>
          {text('preference.submit')}
        </button>
      </div>
    </form>
  );
}
