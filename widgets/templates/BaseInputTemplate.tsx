import type { ChangeEvent } from 'react';
import type { BaseInputTemplateProps } from '@rjsf/utils';
import { getInputProps } from '@rjsf/utils';
import { hintIdOf } from '../form-engine/expected-format-hint';
import { directionOf, inputAria, inputModeOf } from '../form-engine/form-context';
import { upperCaseAsTyped } from '../form-engine/upper-case-as-typed';
import { readOneTimeCode } from '../../schemas/forms/one-time-code';

/**
 * RJSF's BaseInputTemplate (text, email, hidden inputs): `inputMode`, `autocomplete` and the
 * left-to-right direction of a number-like field from the uiSchema, an empty input stored as "no
 * value", letters upper-cased as typed where the site asks (`ui:options.uppercase`), the hint and
 * the error wired with aria.
 */
export function BaseInputTemplate(props: BaseInputTemplateProps) {
  const { id, htmlName, value, type, schema, options, required, disabled, readonly, autofocus, rawErrors, onChange, onChangeOverride, onBlur, onFocus } = props;
  const { type: inputType, autoComplete } = getInputProps(schema, type, options);
  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    // A six-digit code's field (autocomplete one-time-code) keeps its digits only: a pasted "123 456" is 123456.
    const typed =
      options.uppercase === true ? upperCaseAsTyped(event.target) : autoComplete === 'one-time-code' ? readOneTimeCode(event.target.value) : event.target.value;
    onChange(typed === '' ? options.emptyValue : typed);
  };
  return (
    <input
      id={id}
      name={htmlName ?? id}
      className="field__input"
      type={inputType}
      value={value ?? ''}
      inputMode={inputModeOf(options)}
      dir={directionOf(options)}
      autoComplete={autoComplete}
      required={required}
      disabled={disabled}
      readOnly={readonly}
      autoFocus={autofocus}
      onChange={onChangeOverride ?? handleChange}
      onBlur={(event) => onBlur(id, event.target.value)}
      onFocus={(event) => onFocus(id, event.target.value)}
      {...inputAria(id, rawErrors, hintIdOf(id, options))}
    />
  );
}
