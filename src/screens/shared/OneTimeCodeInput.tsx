import type { Ref } from 'react';
import { readOneTimeCode } from '../../../schemas/forms/one-time-code';

/**
 * The field of a six-digit code (ADR 0008), wherever the app asks for one outside the site's forms: the phone's
 * number keypad, the code offered from the text (`one-time-code`), left to right on every page, never longer than
 * six digits: what is typed or pasted is read as its digits (readOneTimeCode: "123 456" is 123456), so the field has
 * no maxLength, which would cut a pasted grouped code short. Its label, error and wait texts belong to the step that asks.
 */
export function OneTimeCodeInput(props: {
  ref: Ref<HTMLInputElement>;
  id: string;
  name: string;
  className?: string;
  value: string;
  invalid: boolean;
  describedBy: string | undefined;
  onChange: (value: string) => void;
}) {
  const { ref, id, name, className, value, invalid, describedBy, onChange } = props;
  return (
    <input
      ref={ref}
      id={id}
      className={className === undefined ? 'field__input' : `field__input ${className}`}
      name={name}
      dir="ltr"
      inputMode="numeric"
      autoComplete="one-time-code"
      value={value}
      required
      aria-invalid={invalid}
      aria-describedby={describedBy}
      onChange={(event) => onChange(readOneTimeCode(event.target.value))}
    />
  );
}
