import { useState, type ChangeEvent } from 'react';
import { CVV_MAX_INPUT_LENGTH, validateCvv } from '../../schemas/validators/cvv';

/** The words of the security-code field, from the `cards` content group. */
export interface CvvTexts {
  label: string;
  hint: string;
  required: string;
  invalid: string;
}

/**
 * The security code of a card form on a site with `pan_capture.capture_cvv` (ADR 0001): held in this
 * form's state only (never a draft, never the store) and emptied once the card is added, so it lives no
 * longer than the check it is for. `check` answers the text to show next to the field, or null.
 */
export function useCvvEntry(texts: CvvTexts | undefined) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const check = (): string | null => {
    if (texts === undefined) return null;
    const problem = validateCvv(value);
    const message = problem === null ? null : problem.key === 'required' ? texts.required : texts.invalid;
    setError(message);
    return message;
  };
  return {
    asked: texts !== undefined,
    value,
    check,
    showError: setError,
    clear: () => setValue(''),
    inputProps: {
      value,
      error,
      onChange: (next: string) => {
        setValue(next);
        setError(null);
      },
    },
  };
}

export interface CvvInputProps {
  id: string;
  texts: CvvTexts;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  disabled?: boolean;
}

/**
 * SPEC §3 `capture_cvv`: three digits, typed on a numeric keypad, offered by the browser's card autofill
 * (`cc-csc`), left to right inside a right-to-left page (ADR 0013), its shape as a hint under the label.
 * What is typed is kept as typed (never cut to three), so two digits, five digits or a letter are refused
 * next to the field on submit, as the gateway refuses them, rather than silently changed.
 */
export function CvvInput({ id, texts, value, onChange, error, disabled }: CvvInputProps) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="field card-cvv">
      <label className="field__label" htmlFor={id}>
        {texts.label}
      </label>
      <p id={hintId} className="field__hint">
        {texts.hint}
      </p>
      <input
        id={id}
        name="cvv"
        className="field__input card-cvv__input"
        type="text"
        dir="ltr"
        inputMode="numeric"
        autoComplete="cc-csc"
        maxLength={CVV_MAX_INPUT_LENGTH}
        value={value}
        disabled={disabled}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value)}
      />
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
