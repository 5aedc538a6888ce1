import type { ReactNode } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { inputAria, labelOf, textOf, tooltipOf } from '../form-engine/form-context';
import { FieldLabelText } from '../templates/FieldLabelText';
import { FieldTooltip } from '../templates/FieldTooltip';

/** A checkbox followed by its own label (and tooltip): the whole label is the click target. */
export function LabelledCheckbox({ widget, label }: { widget: WidgetProps; label: ReactNode }) {
  const { id, htmlName, value, required, disabled, readonly, autofocus, rawErrors, registry, options, onChange, onBlur, onFocus } = widget;
  const tooltip = tooltipOf(registry, options);
  return (
    <div className="check">
      <input
        id={id}
        name={htmlName ?? id}
        className="check__input"
        type="checkbox"
        checked={value === true}
        required={required}
        disabled={disabled || readonly}
        autoFocus={autofocus}
        onChange={(event) => onChange(event.target.checked)}
        onBlur={(event) => onBlur(id, event.target.checked)}
        onFocus={(event) => onFocus(id, event.target.checked)}
        {...inputAria(id, rawErrors)}
      />
      <label className="check__label" htmlFor={id}>
        {label}
      </label>
      {tooltip && <FieldTooltip fieldId={id} label={labelOf(registry, options, widget.label)} tooltip={tooltip} text={textOf(registry)} />}
    </div>
  );
}

/** A boolean as a checkbox labelled from content (`ui:options.labelKey`). */
export function CheckboxWidget(props: WidgetProps) {
  return <LabelledCheckbox widget={props} label={<FieldLabelText label={labelOf(props.registry, props.options, props.label)} required={props.required} />} />;
}
