import type { FocusEvent } from 'react';
import type { FieldProps } from '@rjsf/utils';
import { getUiOptions } from '@rjsf/utils';
import { isLeavingGroup, labelOf, textOf } from '../form-engine/form-context';
import { screenOrder } from '../form-engine/screen-order';

/**
 * SPEC §3 marketing opt-ins: one checkbox per opt-in (label `optins.<key>`, ticked = subscribed)
 * and, with `ui:options.allOfTheAbove`, an "All of the above" box that ticks or clears them all
 * and is ticked exactly when they all are. It is a pseudo-entry: it never reaches the data.
 */
export function OptInListField(props: FieldProps) {
  const { schema, uiSchema, formData, fieldPathId, registry, name, disabled, readonly, onChange, onBlur } = props;
  const id = fieldPathId.$id;
  const options = getUiOptions(uiSchema);
  const text = textOf(registry);
  const keys = screenOrder(schema, uiSchema);
  const subscribed = (typeof formData === 'object' && formData !== null ? formData : {}) as Record<string, unknown>;
  const allSubscribed = keys.length > 0 && keys.every((key) => subscribed[key] === true);

  const save = (next: Record<string, boolean>) => onChange(next, fieldPathId.path, undefined, id);
  const setOne = (key: string, checked: boolean) =>
    save(Object.fromEntries(keys.map((other) => [other, other === key ? checked : subscribed[other] === true])));
  const setAll = (checked: boolean) => save(Object.fromEntries(keys.map((key) => [key, checked])));
  const leave = (event: FocusEvent<HTMLFieldSetElement>) => {
    if (isLeavingGroup(event)) onBlur(id, formData);
  };

  return (
    <fieldset className="fieldset checks optins" onBlur={leave}>
      <legend className="fieldset__legend">{labelOf(registry, options, name)}</legend>
      {keys.map((key, index) => {
        const checkboxId = index === 0 ? id : `${id}_${key}`;
        return (
          <div key={key} className="check">
            <input
              id={checkboxId}
              className="check__input"
              type="checkbox"
              checked={subscribed[key] === true}
              disabled={disabled || readonly}
              onChange={(event) => setOne(key, event.target.checked)}
            />
            <label className="check__label" htmlFor={checkboxId}>
              {text(`optins.${key}`)}
            </label>
          </div>
        );
      })}
      {options.allOfTheAbove === true && keys.length > 1 && (
        <div className="check check--all">
          <input
            id={`${id}__all`}
            className="check__input"
            type="checkbox"
            checked={allSubscribed}
            disabled={disabled || readonly}
            onChange={(event) => setAll(event.target.checked)}
          />
          <label className="check__label" htmlFor={`${id}__all`}>
            {text('optins.allOfTheAbove')}
          </label>
        </div>
      )}
    </fieldset>
  );
}
