import { useRef, type ChangeEvent, type FocusEvent, type KeyboardEvent } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { errorId } from '@rjsf/utils';
import { toLatinDigits } from '../../schemas/locales/intl-format';
import { canonicalDob, dobPartOrder, joinDobParts, splitDobParts, type DobPart } from '../../schemas/validators';
import { isLeavingGroup, labelOf, textOf, tooltipOf } from '../form-engine/form-context';
import { FieldLabelText } from '../templates/FieldLabelText';
import { FieldTooltip } from '../templates/FieldTooltip';

const PART_LENGTH: Readonly<Record<DobPart, number>> = { dd: 2, mm: 2, yyyy: 4 };
const PART_AUTOCOMPLETE: Readonly<Record<DobPart, string>> = { dd: 'bday-day', mm: 'bday-month', yyyy: 'bday-year' };

/**
 * SPEC §5 date of birth: three numeric inputs in the site's `date_format` order, one fieldset
 * named by the field's label. The value is always YYYY-MM-DD with empty parts left empty ("" when
 * none is filled), as schemas/validators/dob.ts reads it. Leaving one part for the next is not
 * leaving the field: the error waits until focus goes elsewhere. Leaving it writes a one-digit day
 * or month as two ("1" becomes "01"), the SPEC §9 form that is stored (canonicalDob).
 *
 * Typing moves on as a date is written: a part completed by typing at its end hands the focus to
 * the next part (its digits selected, so typing replaces them), and Backspace in an empty part
 * goes back to the end of the one before. Nothing else moves the focus: Tab and Shift+Tab work as
 * everywhere, the last part never jumps out of the field, and each part keeps its own label for
 * screen readers.
 */
export function DobWidget(props: WidgetProps) {
  const { id, value, options, label, required, disabled, readonly, autofocus, rawErrors, registry, onChange, onBlur, onFocus } = props;
  const text = textOf(registry);
  const { order } = dobPartOrder(typeof options.dateFormat === 'string' ? options.dateFormat : undefined);
  const parts = splitDobParts(typeof value === 'string' ? value : '');
  const legend = labelOf(registry, options, label);
  const tooltip = tooltipOf(registry, options);
  const invalid = (rawErrors?.length ?? 0) > 0;
  const labelKey = typeof options.labelKey === 'string' ? options.labelKey : 'label.dob';
  const inputs = useRef<(HTMLInputElement | null)[]>([]);

  const change = (part: DobPart, index: number) => (event: ChangeEvent<HTMLInputElement>) => {
    // Digits typed on an Arabic, Persian or Hindi keyboard count; the value stays Latin YYYY-MM-DD (SPEC §5).
    const digits = toLatinDigits(event.target.value)
      .replace(/[^0-9]/g, '')
      .slice(0, PART_LENGTH[part]);
    const next = joinDobParts({ ...parts, [part]: digits });
    onChange(next === '' ? options.emptyValue : next);
    const typedAtEnd = event.target.selectionStart === null || event.target.selectionStart >= event.target.value.length;
    const following = inputs.current[index + 1];
    if (following && digits.length === PART_LENGTH[part] && parts[part].length < PART_LENGTH[part] && typedAtEnd) {
      following.focus();
      following.select();
    }
  };
  const backOverEmpty = (index: number) => (event: KeyboardEvent<HTMLInputElement>) => {
    const previous = inputs.current[index - 1];
    if (event.key !== 'Backspace' || event.currentTarget.value !== '' || !previous) return;
    event.preventDefault();
    previous.focus();
    previous.setSelectionRange(previous.value.length, previous.value.length);
  };
  const leave = (event: FocusEvent<HTMLFieldSetElement>) => {
    if (!isLeavingGroup(event) || typeof value !== 'string') return;
    const canonical = canonicalDob(value);
    if (canonical !== value) onChange(canonical);
    onBlur(id, canonical);
  };

  return (
    <fieldset className="fieldset dob" onBlur={leave} onFocus={() => onFocus(id, value)}>
      <legend className="fieldset__legend">
        <FieldLabelText label={legend} required={required} />
      </legend>
      {tooltip && <FieldTooltip fieldId={id} label={legend} tooltip={tooltip} text={text} />}
      <div className="dob__parts">
        {order.map((part, index) => {
          const partId = index === 0 ? id : `${id}_${part}`;
          return (
            <div key={part} className={`dob__part dob__part--${part}`}>
              <label className="dob__label" htmlFor={partId}>
                {text(`${labelKey}.${part}`)}
              </label>
              <input
                ref={(input) => {
                  inputs.current[index] = input;
                }}
                id={partId}
                className="field__input"
                type="text"
                inputMode="numeric"
                dir="ltr"
                pattern="[0-9]*"
                maxLength={PART_LENGTH[part]}
                size={PART_LENGTH[part] + 1}
                autoComplete={PART_AUTOCOMPLETE[part]}
                value={parts[part]}
                required={required}
                disabled={disabled}
                readOnly={readonly}
                autoFocus={autofocus && index === 0}
                onChange={change(part, index)}
                onKeyDown={backOverEmpty(index)}
                aria-invalid={invalid || undefined}
                aria-describedby={invalid ? errorId(id) : undefined}
              />
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
