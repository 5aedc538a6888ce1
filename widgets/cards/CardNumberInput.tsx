import { useLayoutEffect, useRef, useState, type ChangeEvent, type ClipboardEvent } from 'react';
import { CARD_NUMBER_MAX_INPUT_LENGTH } from '../../schemas/validators/card-number';
import { CARD_NUMBER_FORMAT, deleteDirectionOf, editFormattedText } from '../form-engine/formatted-edit';
// The form engine's field and button styles, which the card forms share outside a SiteForm.
import '../widgets.css';

export interface CardNumberInputProps {
  id: string;
  label: string;
  value: string;
  /** The number as shown: digits in groups of four, single spaces. */
  onChange: (value: string) => void;
  /** Shown under the input and announced; the input is marked invalid while it is set. */
  error?: string | null;
  /** SPEC §5 "input max 19 (configurable)" (pan_capture.maxLength). */
  maxLength?: number;
  placeholder?: string;
  disabled?: boolean;
  required?: boolean;
}

/**
 * SPEC §5 card number input outside the form engine (the card screens' own forms): groups of
 * four as typed with the caret kept in place (formatted-edit.ts, as the CardNumberWidget), and a
 * paste of "4111-1111-1111-1111" or "4111111111111111" shown as "4111 1111 1111 1111" whatever
 * the pasted separators, since a paste is formatted before the input's length cap applies.
 */
export function CardNumberInput({
  id,
  label,
  value,
  onChange,
  error,
  maxLength = CARD_NUMBER_MAX_INPUT_LENGTH,
  placeholder,
  disabled,
  required,
}: CardNumberInputProps) {
  const input = useRef<HTMLInputElement>(null);
  const [caret, setCaret] = useState<{ at: number } | null>(null);
  const errorId = `${id}-error`;

  useLayoutEffect(() => {
    if (caret !== null && input.current !== null && document.activeElement === input.current) input.current.setSelectionRange(caret.at, caret.at);
  }, [caret]);

  const show = (text: string, at: number) => {
    const capped = text.slice(0, maxLength);
    setCaret({ at: Math.min(at, capped.length) });
    onChange(capped);
  };

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const target = event.target;
    const edit = editFormattedText(CARD_NUMBER_FORMAT, value, target.value, target.selectionStart ?? target.value.length, deleteDirectionOf(event.nativeEvent));
    show(edit.text, edit.caret);
  };

  const handlePaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const pasted = event.clipboardData.getData('text');
    const target = event.currentTarget;
    event.preventDefault();
    const start = target.selectionStart ?? value.length;
    const end = target.selectionEnd ?? value.length;
    const edited = value.slice(0, start) + pasted + value.slice(end);
    const edit = editFormattedText(CARD_NUMBER_FORMAT, value, edited, start + pasted.length);
    show(edit.text, edit.caret);
  };

  return (
    <div className="field card-number">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        ref={input}
        id={id}
        name="pan"
        className="field__input card-number__input"
        type="text"
        dir="ltr"
        inputMode="numeric"
        autoComplete="cc-number"
        value={value}
        maxLength={maxLength}
        placeholder={placeholder}
        disabled={disabled}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={handleChange}
        onPaste={handlePaste}
      />
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          <span className="card-number__error-icon" aria-hidden="true">
            ⚠
          </span>{' '}
          {error}
        </p>
      ) : null}
    </div>
  );
}
