import type { ChangeEvent, FocusEvent } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { errorId } from '@rjsf/utils';
import { isLeavingGroup, labelOf, siteFormContext } from '../form-engine/form-context';
import { FieldLabelText } from '../templates/FieldLabelText';

/**
 * SPEC §2, §3 offers_preference: a checkbox per offer category the screen loaded
 * (`formContext.offerCategories`), the value the list of ticked ids in category order.
 */
export function OfferCategoriesWidget(props: WidgetProps) {
  const { id, value, options, label, required, disabled, readonly, rawErrors, registry, onChange, onBlur, onFocus } = props;
  const { offerCategories } = siteFormContext(registry);
  const chosen = new Set(Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
  const invalid = (rawErrors?.length ?? 0) > 0;

  const toggle = (categoryId: string) => (event: ChangeEvent<HTMLInputElement>) => {
    const next = new Set(chosen);
    if (event.target.checked) next.add(categoryId);
    else next.delete(categoryId);
    onChange(offerCategories.map((category) => category.id).filter((item) => next.has(item)));
  };
  const leave = (event: FocusEvent<HTMLFieldSetElement>) => {
    if (isLeavingGroup(event)) onBlur(id, value);
  };

  return (
    <fieldset
      id={offerCategories.length === 0 ? id : undefined}
      className="fieldset checks"
      onBlur={leave}
      onFocus={() => onFocus(id, value)}
      aria-describedby={invalid ? errorId(id) : undefined}
    >
      <legend className="fieldset__legend">
        <FieldLabelText label={labelOf(registry, options, label)} required={required} />
      </legend>
      {offerCategories.map((category, index) => {
        const checkboxId = index === 0 ? id : `${id}_${category.id}`;
        return (
          <div key={category.id} className="check">
            <input
              id={checkboxId}
              className="check__input"
              type="checkbox"
              checked={chosen.has(category.id)}
              disabled={disabled || readonly}
              onChange={toggle(category.id)}
            />
            <label className="check__label" htmlFor={checkboxId}>
              {category.name}
            </label>
          </div>
        );
      })}
    </fieldset>
  );
}
