import type { WidgetProps } from '@rjsf/utils';
import { inputAria, textOf } from '../form-engine/form-context';

export interface SelectOption {
  value: string;
  label: string;
}

/** A native select with an empty "choose" option first, so nothing is picked for the person. */
export function NativeSelect({ widget, choices }: { widget: WidgetProps; choices: readonly SelectOption[] }) {
  const { id, htmlName, value, options, required, disabled, readonly, autofocus, rawErrors, registry, onChange, onBlur, onFocus } = widget;
  return (
    <select
      id={id}
      name={htmlName ?? id}
      className="field__input field__select"
      value={typeof value === 'string' ? value : ''}
      autoComplete={typeof options.autocomplete === 'string' ? options.autocomplete : undefined}
      required={required}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      onChange={(event) => onChange(event.target.value === '' ? options.emptyValue : event.target.value)}
      onBlur={(event) => onBlur(id, event.target.value)}
      onFocus={(event) => onFocus(id, event.target.value)}
      {...inputAria(id, rawErrors)}
    >
      <option value="">{textOf(registry)('select.choose')}</option>
      {choices.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </select>
  );
}

/**
 * Choices a person can tell apart: where a language gives two values one word (German "Frau" for both Mrs and Ms,
 * French "Mme"), only the first is offered, unless the other is the value already held, which then shows in its place.
 */
function distinctChoices(choices: readonly SelectOption[], held: unknown): SelectOption[] {
  const kept = new Map<string, SelectOption>();
  for (const choice of choices) {
    const first = kept.get(choice.label);
    if (first === undefined || (choice.value === held && first.value !== held)) kept.set(choice.label, choice);
  }
  return [...kept.values()];
}

/** The schema's `enum` as a select; option texts from content under `ui:options.enumKeyPrefix` + value. */
export function SelectWidget(props: WidgetProps) {
  const text = textOf(props.registry);
  const prefix = typeof props.options.enumKeyPrefix === 'string' ? props.options.enumKeyPrefix : null;
  const choices = (props.options.enumOptions ?? []).map(({ value, label }) => ({
    value: String(value),
    label: prefix === null ? label : text(`${prefix}${String(value)}`),
  }));
  return <NativeSelect widget={props} choices={distinctChoices(choices, props.value)} />;
}
