import { useId, useState, type SubmitEvent, type ReactNode } from 'react';
import { CardNumberInput } from './CardNumberInput';
import { CardStatusMessage, type CardStatus } from './CardStatusMessage';
import { CvvInput, useCvvEntry, type CvvTexts } from './CvvInput';
import './cards.css';
import { useCardEntry } from './use-card-entry';

/** `cvvError`: the gateway refused the security code (ADR 0001 capture_cvv); shown next to that field. */
export type CardAddOutcome = { added: true } | { added: false; error: string | null; cvvError?: string | null };

export interface CaptureBlockProps {
  title?: string;
  subtitle?: string;
  description?: string;
  /** The cards already there (a list component), shown inside the block's sub-form. */
  existingCards?: ReactNode;
  /** The input's label (pan_capture.label, else the content text). */
  label: string;
  /** A line above the input ("Add another card"), when the site has one. */
  formLabel?: string;
  /** SPEC §2 "card input (only when validation is on)". */
  validate: boolean;
  /** SPEC §5 "required unless config optional or at least one card exists": the input says so. */
  required?: boolean;
  submitText: string;
  placeholder?: string;
  maxLength?: number;
  /** The number's own problem (SPEC §5 format, duplicate), as the text to show, before any call. */
  checkNumber: (value: string) => string | null;
  /** Adds the card; when it was added the field resets, else it keeps the number and shows the error, if any. `cvv` only where the site asks it. */
  onAdd: (value: string, cvv?: string) => Promise<CardAddOutcome>;
  /** SPEC §3 `capture_cvv`: the security-code field's texts; absent, the form asks no code. */
  cvvTexts?: CvvTexts;
  status: CardStatus | null;
  /** The button's name while a check runs ("Checking your card…"). */
  checkingText: string;
}

/**
 * SPEC §2 capture block: optional title, subtitle and description, then a sub-form with the
 * existing cards, an optional label, the card input and the add button, disabled while the
 * number is empty or a check runs (idle → validating → success or error, SPEC §4), and the status
 * message of the last add or removal. That message goes as soon as a new entry begins (the person types in
 * the number or the code): it said how the last one went and would read as this one's outcome. Only what
 * shows goes; the status event was raised when the change was made (SPEC §3 "Card status events").
 */
export function CaptureBlock({
  title,
  subtitle,
  description,
  existingCards,
  label,
  formLabel,
  validate,
  required = false,
  submitText,
  placeholder,
  maxLength,
  checkNumber,
  onAdd,
  status,
  checkingText,
  cvvTexts,
}: CaptureBlockProps) {
  const inputId = useId();
  const { value, checking, checkThenSend, inputProps } = useCardEntry(checkNumber);
  const cvv = useCvvEntry(cvvTexts);
  // The status a new entry began after: not shown any more (a later add or removal brings a new one).
  const [passedStatus, setPassedStatus] = useState<CardStatus | null>(null);
  const shownStatus = status === passedStatus ? null : status;
  const beginsEntry = (onChange: (next: string) => void) => (next: string) => {
    onChange(next);
    setPassedStatus(status);
  };

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (value === '' || checking) return;
    await checkThenSend(async (number) => {
      // The code's own problem first: no call is made with a code the gateway would refuse.
      if (cvv.check() !== null) return { error: null, clear: false };
      const outcome = cvv.asked ? await onAdd(number, cvv.value) : await onAdd(number);
      if (outcome.added) cvv.clear();
      else if (outcome.cvvError) cvv.showError(outcome.cvvError);
      return outcome.added ? { error: null, clear: true } : { error: outcome.error, clear: false };
    });
  };

  return (
    <section className="capture-block" aria-labelledby={title ? `${inputId}-title` : undefined}>
      {title && (
        <h2 id={`${inputId}-title`} className="capture-block__title">
          {title}
        </h2>
      )}
      {subtitle && <p className="capture-block__subtitle">{subtitle}</p>}
      {description && <p className="capture-block__description">{description}</p>}
      <div className="capture-block__form">
        {existingCards}
        {validate && (
          <form className="capture-block__add" noValidate onSubmit={(event) => void submit(event)} aria-busy={checking}>
            {formLabel && <p className="capture-block__label">{formLabel}</p>}
            <CardNumberInput
              id={inputId}
              label={label}
              {...inputProps}
              onChange={beginsEntry(inputProps.onChange)}
              maxLength={maxLength}
              placeholder={placeholder}
              required={required}
            />
            {cvvTexts && (
              <CvvInput id={`${inputId}-cvv`} texts={cvvTexts} {...cvv.inputProps} onChange={beginsEntry(cvv.inputProps.onChange)} disabled={checking} />
            )}
            <button
              type="submit"
              className={`button button--primary capture-block__submit${checking ? ' is-loading' : ''}`}
              disabled={value === '' || checking}
            >
              {checking && <span className="button__spinner" aria-hidden="true" />}
              {checking ? checkingText : submitText}
            </button>
          </form>
        )}
        <CardStatusMessage status={shownStatus} />
      </div>
    </section>
  );
}
