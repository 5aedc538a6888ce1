import { useEffect, useEffectEvent, useId, useRef, useState, type SubmitEvent } from 'react';
import { Modal } from '../../../widgets/cards/Modal';
import type { GatewayError } from '../../api/gateway-api';
import { isCodeSpent, type TextRef } from '../../api/gateway-error';
import { useVerifyOtpMutation } from '../../api/user-auth-api';
import { useGetPreferenceDetailsQuery, useSendCodeMutation } from '../../api/user-mgmt-api';
import { browserLocalStorage } from '../../app/browser-storage';
import { ONE_TIME_CODE, readOneTimeCode } from '../../../schemas/forms/one-time-code';
import { dropFlowStep } from '../../account/form-drafts';
import { useKeptFlowStep } from '../../account/use-kept-flow-step';
import {
  endsTheSession,
  freshProofRefusal,
  keptPasscodeSend,
  offeredChannels,
  waitSecondsOf,
  type FreshProofDemand,
  type OfferedChannel,
  type SentPasscode,
} from '../../auth/fresh-proof';
import { rememberTrustedOtp, verifiedUntilSeconds } from '../../auth/trusted-otp';
import { useIsolatedText } from '../../content/use-isolated-text';
import { useText } from '../../content/use-text';
import { useSiteLocation } from '../../site/use-site-location';
import { FormAlert } from './FormAlert';
import { OneTimeCodeInput } from './OneTimeCodeInput';
import { PasscodeChannelChoice } from './PasscodeChannelChoice';
import { RetryAnnouncement } from './RetryAnnouncement';
import { useRefusalText } from './use-refusal-text';
import { useSignedInProfile } from './use-profile';
import { useRetryCountdown } from './use-retry-countdown';
import '../../../widgets/widgets.css';
import './form-screens.css';
import './confirm-its-you.css';

/** How the check ended: the change may be sent again, the person gave up, or the session itself ended. */
export type FreshProofOutcome = { kind: 'confirmed' } | { kind: 'cancelled' } | { kind: 'session-ended'; error: GatewayError };

/** ADR 0008 codes are six digits; a shorter or longer one is named next to the field before anything is sent. */

/**
 * As on the sign-in passcode step (LoginOtpScreen): after each code sent the resend link rests, so a
 * double tap does not spend a send while the code is on its way (ADR 0008 "Codes asked for again"). The
 * gateway's own limits (Retry-After) still decide.
 */
const RESEND_COOL_DOWN_SECONDS = 30;

type SendNotice = { kind: 'error' | 'success'; text: TextRef };

/**
 * "Confirm it's you" (auth/fresh-proof.ts), in SPEC §2's generic modal (focus kept inside, Escape
 * closes, focus back to what opened it). For an authenticator (`totp`) it asks for the app's code;
 * for a passcode it lets the person choose e-mail or SMS when the gateway allows several (masked
 * destinations of get-preference-details), else sends at once, says where the code went, and offers
 * a new one. `send-code { purpose: "otp-check" }` and `user-auth/otp/verify` are the otp-check
 * screens' calls (SPEC §2, ADR 0008), so a pass is remembered as otp_expiry like theirs (§4, §9).
 * A wrong or expired code, the attempts left and a wait (429/503, counted down) show next to the code;
 * none of them signs the person out. Where the code went is the dialog's step, kept for the tab (ADR 0019 "Flow
 * steps", never the code): after a reload or Back/Forward the same change asks for that code, still live, instead of
 * sending another; a passed check ends it.
 */
export function ConfirmItsYouDialog({ demand, onDone }: { demand: FreshProofDemand; onDone: (outcome: FreshProofOutcome) => void }) {
  const { siteId } = useSiteLocation();
  const profile = useSignedInProfile();
  const text = useText('signIn');
  const isolatedText = useIsolatedText('signIn');
  const common = useText('common');
  const refusalText = useRefusalText();
  const passcode = demand.proof === 'passcode';
  const info = useGetPreferenceDetailsQuery(
    { siteId, primaryUserIdentifier: profile?.primaryUserIdentifier ?? '' },
    { skip: !passcode || profile === null, refetchOnMountOrArgChange: true },
  );
  const detailsSettled = !passcode || profile === null || info.isSuccess || info.isError;
  const offered = offeredChannels(demand, info.data);
  // A choice only between destinations the person can recognise; without them the gateway's first channel is used.
  const choosable = info.data !== undefined && offered.length > 1;
  const [sendCode, sending] = useSendCodeMutation();
  const [verifyOtp, verifying] = useVerifyOtpMutation();
  const [chosenChannel, setChannel] = useState<OfferedChannel | null>(null);
  const [sentNow, setSentTo] = useState<SentPasscode | null>(null);
  const sentTo = useKeptFlowStep('confirm-its-you', sentNow, (kept) => keptPasscodeSend(kept, demand, Date.now()));
  const channel = chosenChannel ?? sentTo;
  const [sendNotice, setSendNotice] = useState<SendNotice | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<TextRef | null>(null);
  // ADR 0008: a spent passcode (used, expired, or its attempts used up) never passes; Confirm rests until a new one is sent.
  const [codeSpent, setCodeSpent] = useState(false);
  const checkWait = useRetryCountdown();
  const sendWait = useRetryCountdown();
  const inputId = useId();
  const errorId = `${inputId}-error`;
  const waitId = `${inputId}-wait`;
  const body = useRef<HTMLDivElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);

  const step: 'loading' | 'choose' | 'code' = !passcode || channel !== null ? 'code' : choosable ? 'choose' : 'loading';

  const send = async (to: OfferedChannel) => {
    setChannel(to);
    setSendNotice(null);
    setCodeError(null);
    const answer = await sendCode({ siteId, channel: to.channel, purpose: 'otp-check' });
    if (answer.error === undefined) {
      // The first code is announced by the intro; a new one by a notice, as on the sign-in step.
      if (sentTo !== null) setSendNotice({ kind: 'success', text: { group: 'signIn', key: 'otp.resent' } });
      setSentTo({ ...to, sentAt: Date.now() });
      setCode('');
      setCodeSpent(false);
      sendWait.start(RESEND_COOL_DOWN_SECONDS);
      return;
    }
    const seconds = waitSecondsOf(answer.error);
    if (seconds !== null) sendWait.start(seconds);
    setSendNotice({ kind: 'error', text: freshProofRefusal(answer.error) });
  };

  // One channel (or no details to choose by): the code goes as soon as the dialog knows where.
  const sendToTheOnlyChannel = useEffectEvent(() => {
    // A code sent before a reload is still live: it is asked for, not sent again.
    if (sentTo !== null) return;
    const only = offered[0];
    if (only !== undefined) void send(only);
  });
  const autoSent = useRef(false);
  useEffect(() => {
    if (!passcode || autoSent.current || !detailsSettled || choosable) return;
    autoSent.current = true;
    sendToTheOnlyChannel();
  }, [passcode, detailsSettled, choosable]);

  // The Modal puts focus on its first control; the step's own first field is where the person starts.
  useEffect(() => {
    (step === 'code' ? codeInput.current : body.current?.querySelector('input'))?.focus();
  }, [step]);

  const verify = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = readOneTimeCode(code);
    if (!ONE_TIME_CODE.test(typed)) {
      setCodeError({ group: 'signIn', key: 'freshProof.codeFormat' });
      codeInput.current?.focus();
      return;
    }
    setCodeError(null);
    const answer = await verifyOtp({ siteId, otp: typed, otpType: passcode ? (channel?.channel ?? 'email') : 'totp' });
    if (answer.error === undefined) {
      const now = Date.now();
      rememberTrustedOtp(browserLocalStorage(), now, verifiedUntilSeconds(answer.data.verifiedUntil, now));
      dropFlowStep('confirm-its-you');
      onDone({ kind: 'confirmed' });
      return;
    }
    if (endsTheSession(answer.error)) {
      onDone({ kind: 'session-ended', error: answer.error });
      return;
    }
    const seconds = waitSecondsOf(answer.error);
    if (seconds !== null) checkWait.start(seconds);
    setCodeError(freshProofRefusal(answer.error));
    setCodeSpent(passcode && isCodeSpent(answer.error));
    // Back on the code, selected, so a retyped one replaces it; the field is described by its error.
    codeInput.current?.focus();
    codeInput.current?.select();
  };

  const intro = !passcode
    ? text('otp.totpIntro')
    : sentTo === null
      ? null
      : sentTo.maskedDestination === null
        ? text('otp.sent')
        : isolatedText(sentTo.channel === 'email' ? 'otp.sentToEmail' : 'otp.sentToPhone', { destination: sentTo.maskedDestination });
  const describedBy = [codeError !== null ? errorId : null, checkWait.secondsLeft > 0 ? waitId : null].filter((id) => id !== null).join(' ');

  return (
    <Modal
      title={text('freshProof.title')}
      closeLabel={common('button.close')}
      onClose={() => onDone({ kind: 'cancelled' })}
      actions={
        <button type="button" className="button button--secondary" onClick={() => onDone({ kind: 'cancelled' })}>
          {common('button.cancel')}
        </button>
      }
    >
      <div ref={body} className="confirm-its-you" aria-busy={sending.isLoading || verifying.isLoading || (passcode && !detailsSettled)}>
        <p>{text('freshProof.intro')}</p>
        {step === 'choose' && info.data !== undefined && (
          <PasscodeChannelChoice
            info={info.data}
            allowed={offered.map((option) => option.channel)}
            busy={sending.isLoading}
            onChoose={(chosen, maskedDestination) => void send({ channel: chosen, maskedDestination })}
          />
        )}
        {step === 'code' && (
          <>
            {intro !== null && <p data-testid="fresh-proof-sent-to">{intro}</p>}
            {sendNotice && <FormAlert kind={sendNotice.kind} message={refusalText(sendNotice.text)} />}
            <form className="site-form confirm-its-you__form" noValidate onSubmit={(event) => void verify(event)}>
              <div className="field">
                <label className="field__label" htmlFor={inputId}>
                  {text('freshProof.codeLabel')}
                </label>
                <OneTimeCodeInput
                  ref={codeInput}
                  id={inputId}
                  className="confirm-its-you__code"
                  name="otp"
                  value={code}
                  invalid={codeError !== null}
                  describedBy={describedBy === '' ? undefined : describedBy}
                  onChange={(typed) => {
                    setCode(typed);
                    setCodeError(null);
                  }}
                />
                {codeError !== null && (
                  <p id={errorId} className="field__error" role="alert">
                    {refusalText(codeError)}
                  </p>
                )}
                {checkWait.secondsLeft > 0 && (
                  <p id={waitId} className="retry-wait">
                    {text('retry.waiting', { seconds: checkWait.secondsLeft })}
                  </p>
                )}
              </div>
              <div className="site-form__actions">
                <button type="submit" className="button button--primary" disabled={verifying.isLoading || checkWait.secondsLeft > 0 || codeSpent}>
                  {text('freshProof.submit')}
                </button>
              </div>
            </form>
            <RetryAnnouncement waiting={null} ready={checkWait.phase === 'ready' ? text('retry.ready') : null} />
            {passcode && channel !== null && (
              <p className="sign-in__links">
                <button type="button" className="link-button" onClick={() => void send(channel)} disabled={sending.isLoading || sendWait.secondsLeft > 0}>
                  {sendWait.secondsLeft > 0 ? text('otp.resendIn', { seconds: sendWait.secondsLeft }) : text('otp.resend')}
                </button>
                {choosable && (
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => {
                      dropFlowStep('confirm-its-you');
                      setSentTo(null);
                      setChannel(null);
                      setSendNotice(null);
                      setCodeError(null);
                    }}
                  >
                    {text('freshProof.otherChannel')}
                  </button>
                )}
              </p>
            )}
            <RetryAnnouncement
              waiting={sendWait.phase === 'waiting' ? text('otp.resendWaiting', { seconds: sendWait.startedWith }) : null}
              ready={sendWait.phase === 'ready' ? text('otp.resendReady') : null}
            />
          </>
        )}
      </div>
    </Modal>
  );
}
