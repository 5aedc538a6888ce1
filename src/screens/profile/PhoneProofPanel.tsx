import { useId, useRef, useState, type SubmitEvent } from 'react';
import { ONE_TIME_CODE, readOneTimeCode } from '../../../schemas/forms/one-time-code';
import { asGatewayError } from '../../api/gateway-error';
import { useGetPhoneProofQuery, useProvePhoneMutation, useResendPhoneProofMutation } from '../../api/phone-proof-api';
import { freshProofRefusal, waitSecondsOf } from '../../auth/fresh-proof';
import { useIsolatedText } from '../../content/use-isolated-text';
import { useText } from '../../content/use-text';
import { useSiteLocation } from '../../site/use-site-location';
import { FormAlert } from '../shared/FormAlert';
import { OneTimeCodeInput } from '../shared/OneTimeCodeInput';
import { useRefusalText } from '../shared/use-refusal-text';
import { useRetryCountdown } from '../shared/use-retry-countdown';
import '../shared/form-screens.css';

/** ADR 0008 codes are six digits; a shorter or longer one is named next to the field before anything is sent. */

/** As the other code steps: the resend rests after each code, so a double tap does not replace the one on its way. */
const RESEND_COOL_DOWN_SECONDS = 30;

type Notice = { kind: 'error' | 'success'; message: string };

/**
 * A new phone proved before it counts (docs/decisions/0025-fresh-proof.md): while the site's new number waits for
 * the code texted to it, the profile says so, says that codes still go to the number the holder had, and takes the
 * code, with a new one on request. Shown to the card holder only: an agent never enters the holder's code (ADR 0014).
 */
export function PhoneProofPanel() {
  const { siteId } = useSiteLocation();
  const text = useText('profile');
  // The masked number reads left to right inside Arabic text (ADR 0013).
  const isolatedText = useIsolatedText('profile');
  const refusalText = useRefusalText();
  const state = useGetPhoneProofQuery({ siteId });
  const [provePhone, proving] = useProvePhoneMutation();
  const [resend, resending] = useResendPhoneProofMutation();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const resendWait = useRetryCountdown();
  const inputId = useId();
  const errorId = `${inputId}-error`;
  const codeInput = useRef<HTMLInputElement>(null);
  const pendingPhone = state.data?.pendingPhone ?? null;

  const prove = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = readOneTimeCode(code);
    setNotice(null);
    if (!ONE_TIME_CODE.test(typed)) {
      setCodeError(text('phoneProof.codeFormat'));
      codeInput.current?.focus();
      return;
    }
    setCodeError(null);
    const answer = await provePhone({ siteId, passcode: typed });
    if (answer.error === undefined) {
      setCode('');
      setNotice({ kind: 'success', message: text('phoneProof.confirmed') });
      return;
    }
    const error = asGatewayError(answer.error);
    if (error.code === 'PASSCODE_INVALID') {
      const attemptsLeft = error.details?.attemptsLeft;
      setCodeError(text(typeof attemptsLeft === 'number' && attemptsLeft > 0 ? 'phoneProof.wrongCode' : 'phoneProof.codeSpent'));
    } else if (error.code !== 'PHONE_NOT_PENDING') {
      // PHONE_NOT_PENDING: proved or replaced in another window; the state loads again and says how it stands.
      setCodeError(refusalText(freshProofRefusal(error)));
    }
    codeInput.current?.focus();
    codeInput.current?.select();
  };

  const sendAgain = async () => {
    setNotice(null);
    setCodeError(null);
    const answer = await resend({ siteId });
    if (answer.error === undefined) {
      setCode('');
      resendWait.start(RESEND_COOL_DOWN_SECONDS);
      setNotice({ kind: 'success', message: text('phoneProof.resent') });
      return;
    }
    const seconds = waitSecondsOf(answer.error);
    if (seconds !== null) resendWait.start(seconds);
    if (asGatewayError(answer.error).code !== 'PHONE_NOT_PENDING') setNotice({ kind: 'error', message: refusalText(freshProofRefusal(answer.error)) });
  };

  if (pendingPhone === null) {
    // The confirmation outlives the question it answers, until the person leaves the page.
    return notice?.kind === 'success' ? <FormAlert kind="success" message={notice.message} /> : null;
  }
  return (
    <section className="profile-panel profile-phone-proof" aria-labelledby="profile-phone-proof-title" aria-busy={proving.isLoading || resending.isLoading}>
      <h2 id="profile-phone-proof-title" className="profile-panel__title">
        {text('phoneProof.title')}
      </h2>
      <p className="profile-panel__intro">{isolatedText('phoneProof.intro', { phone: pendingPhone })}</p>
      {notice && <FormAlert kind={notice.kind} message={notice.message} />}
      <form className="site-form" noValidate onSubmit={(event) => void prove(event)}>
        <div className="field">
          <label className="field__label" htmlFor={inputId}>
            {text('phoneProof.codeLabel')}
          </label>
          <OneTimeCodeInput
            ref={codeInput}
            id={inputId}
            name="phone-proof-code"
            value={code}
            invalid={codeError !== null}
            describedBy={codeError === null ? undefined : errorId}
            onChange={(typed) => {
              setCode(typed);
              setCodeError(null);
            }}
          />
          {codeError !== null && (
            <p id={errorId} className="field__error" role="alert">
              {codeError}
            </p>
          )}
        </div>
        <div className="site-form__actions">
          <button type="submit" className="button button--primary" disabled={proving.isLoading}>
            {text('phoneProof.submit')}
          </button>
          <button type="button" className="link-button" onClick={() => void sendAgain()} disabled={resending.isLoading || resendWait.secondsLeft > 0}>
            {resendWait.secondsLeft > 0 ? text('phoneProof.resendIn', { seconds: resendWait.secondsLeft }) : text('phoneProof.resend')}
          </button>
        </div>
      </form>
    </section>
  );
}
