import { useId, useState, type SubmitEvent, type ReactNode } from 'react';
import { CardNumberInput } from './CardNumberInput';
import { CvvInput, useCvvEntry, type CvvTexts } from './CvvInput';
import './cards.css';
import { useCardEntry } from './use-card-entry';

export interface StandaloneCardFormProps {
  label: string;
  placeholder?: string;
  maxLength?: number;
  /** pan_capture.optInText, else the content text. */
  termsText: string;
  submitText: string;
  checkingText: string;
  /** The cancel control (a link to /profile: the screen knows the routes). */
  cancel: ReactNode;
  /** SPEC §5 standalone rule (single spaces), as the text to show. */
  checkNumber: (value: string) => string | null;
  /** Answers the error to show next to the number (or, as `cvvError`, next to the code), or null (the screen moves on or shows a banner). */
  onSubmit: (value: string, cvv?: string) => Promise<string | { cvvError: string } | null>;
  /** SPEC §3 `capture_cvv`: the security-code field's texts; absent, the form asks no code. */
  cvvTexts?: CvvTexts;
}

/**
 * SPEC §2 standalone (isVpp) form: the card number, the terms checkbox, submit and cancel.
 * Submit is enabled only when a number is there and the terms are ticked (SPEC §5).
 */
export function StandaloneCardForm({
  label,
  placeholder,
  maxLength,
  termsText,
  submitText,
  checkingText,
  cancel,
  checkNumber,
  onSubmit,
  cvvTexts,
}: StandaloneCardFormProps) {
  const id = useId();
  const { value, checking, checkThenSend, inputProps } = useCardEntry(checkNumber);
  const cvv = useCvvEntry(cvvTexts);
  const [terms, setTerms] = useState(false);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (value === '' || !terms || checking) return;
    await checkThenSend(async (number) => {
      if (cvv.check() !== null) return { error: null, clear: false };
      const answer = cvv.asked ? await onSubmit(number, cvv.value) : await onSubmit(number);
      if (typeof answer === 'object' && answer !== null) {
        cvv.showError(answer.cvvError);
        return { error: null, clear: false };
      }
      return { error: answer, clear: false };
    });
  };

  return (
    <form className="standalone-card" noValidate onSubmit={(event) => void submit(event)} aria-busy={checking}>
      <CardNumberInput id={`${id}-pan`} label={label} {...inputProps} maxLength={maxLength} placeholder={placeholder} required />
      {cvvTexts && <CvvInput id={`${id}-cvv`} texts={cvvTexts} {...cvv.inputProps} disabled={checking} />}
      <div className="check standalone-card__terms">
        <input
          id={`${id}-terms`}
          className="check__input"
          type="checkbox"
          checked={terms}
          onChange={(event) => setTerms(event.target.checked)}
          disabled={checking}
        />
        <label className="check__label" htmlFor={`${id}-terms`}>
          {termsText}
        </label>
      </div>
      <div className="standalone-card__actions">
        <button type="submit" className={`button button--primary${checking ? ' is-loading' : ''}`} disabled={value === '' || !terms || checking}>
          {checking && <span className="button__spinner" aria-hidden="true" />}
          {checking ? checkingText : submitText}
        </button>
        {cancel}
      </div>
    </form>
  );
}
