import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { CardNumberInput } from './CardNumberInput';
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
  /** Answers the error to show next to the number, or null (the screen moves on or shows a banner). */
  onSubmit: (value: string) => Promise<string | null>;
}

/**
 * SPEC §2 standalone (isVpp) form: the card number, the terms checkbox, submit and cancel.
 * Submit is enabled only when a number is there and the terms are ticked (SPEC §5).
 */
export function StandaloneCardForm({ label, placeholder, maxLength, termsText, submitText, checkingText, cancel, checkNumber, onSubmit }: StandaloneCardFormProps) {
  const id = useId();
  const { value, checking, checkThenSend, inputProps } = useCardEntry(checkNumber);
  const [terms, setTerms] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (value === '' || !terms || checking) return;
    await checkThenSend(async (number) => ({ error: await onSubmit(number), clear: false }));
  };

  return (
    <form className="standalone-card" noValidate onSubmit={(event) => void submit(event)} aria-busy={checking}>
      <CardNumberInput
        id={`${id}-pan`}
        label={label}
        {...inputProps}
        maxLength={maxLength}
        placeholder={placeholder}
        required
      />
      <div className="check standalone-card__terms">
        <input id={`${id}-terms`} className="check__input" type="checkbox" checked={terms} onChange={(event) => setTerms(event.target.checked)} disabled={checking} />
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
