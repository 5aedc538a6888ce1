import { useLayoutEffect, useRef, useState, type ChangeEvent, type HTMLAttributes } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { hintIdOf } from '../form-engine/expected-format-hint';
import { inputAria } from '../form-engine/form-context';
import { deleteDirectionOf, editFormattedText, type TextFormat } from '../form-engine/formatted-edit';

interface FormattedInputProps {
  widget: WidgetProps;
  format: TextFormat;
  /** What is stored for what the input shows: its slot characters, or the shown text itself. */
  toValue: (shown: string) => string;
  inputMode: HTMLAttributes<HTMLInputElement>['inputMode'];
  /** `ltr` for number-like text (card number, masked phone …), which keeps its order in a right-to-left page (ADR 0013). */
  dir?: 'ltr';
  autoComplete?: string;
  maxLength?: number;
}

interface Shown {
  text: string;
  caret: number | null;
}

/**
 * An input that formats as the person types and keeps the caret where they are (formatted-edit.ts).
 * It keeps what it shows in local state, since the stored value drops the separators a person
 * may just have typed; a stored value set from outside (saved data, a reset) is shown formatted.
 */
export function FormattedInput({ widget, format, toValue, inputMode, dir, autoComplete, maxLength }: FormattedInputProps) {
  const { id, htmlName, value, options, required, disabled, readonly, autofocus, rawErrors, onChange, onBlur, onFocus } = widget;
  const stored = typeof value === 'string' ? value : '';
  const [local, setLocal] = useState<Shown>(() => ({ text: format.format(stored), caret: null }));
  const shown = toValue(local.text) === stored ? local.text : format.format(stored);
  const input = useRef<HTMLInputElement>(null);

  useLayoutEffect(() => {
    if (local.caret !== null && input.current && input.current.ownerDocument.activeElement === input.current) {
      input.current.setSelectionRange(local.caret, local.caret);
    }
  }, [local]);

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const target = event.target;
    const edit = editFormattedText(format, shown, target.value, target.selectionStart ?? target.value.length, deleteDirectionOf(event.nativeEvent));
    // A new object even when the text is unchanged (a refused character), so the caret is put back.
    setLocal({ text: edit.text, caret: edit.caret });
    const next = toValue(edit.text);
    onChange(next === '' ? options.emptyValue : next);
  };

  return (
    <input
      ref={input}
      id={id}
      name={htmlName ?? id}
      className="field__input"
      type="text"
      value={shown}
      inputMode={inputMode}
      dir={dir}
      autoComplete={autoComplete}
      maxLength={maxLength}
      required={required}
      disabled={disabled}
      readOnly={readonly}
      autoFocus={autofocus}
      onChange={handleChange}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      {...inputAria(id, rawErrors, hintIdOf(id, options))}
    />
  );
}
