import type { FieldTemplateProps } from '@rjsf/utils';
import { getUiOptions } from '@rjsf/utils';
import { hintIdOf, hintTextOf } from '../form-engine/expected-format-hint';
import { labelOf, textOf, tooltipOf } from '../form-engine/form-context';
import { FieldLabelText } from './FieldLabelText';
import { FieldTooltip } from './FieldTooltip';

/** Widgets that carry their own label (a checkbox's label, a group's legend) or none at all. */
const SELF_LABELLED_WIDGETS: ReadonlySet<string> = new Set(['checkbox', 'PrivacyPolicyWidget', 'DobWidget', 'OfferCategoriesWidget']);

/**
 * One field: its label from content (`ui:options.labelKey`) with the required marker and an
 * optional tooltip, the format it expects as a hint (SPEC §5, expected-format.ts), the widget, and
 * its error message right under it (the SPEC §5/§8 error keys, texts from content).
 */
export function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, errors, rawErrors, hidden, required, displayLabel, registry, uiSchema, schema } = props;
  if (hidden) return <div hidden>{children}</div>;
  if (schema.type === 'object') {
    return (
      <>
        {children}
        {errors}
      </>
    );
  }

  const options = getUiOptions(uiSchema);
  const labelsItself = SELF_LABELLED_WIDGETS.has(String(options.widget));
  const labelText = labelOf(registry, options, label);
  const tooltip = tooltipOf(registry, options);
  const invalid = (rawErrors?.length ?? 0) > 0;
  const hintId = hintIdOf(id, options);
  return (
    <div className={invalid ? 'field field--invalid' : 'field'}>
      {displayLabel && !labelsItself && (
        <div className="field__label-row">
          <label className="field__label" htmlFor={id}>
            <FieldLabelText label={labelText} required={required} />
          </label>
          {tooltip && <FieldTooltip fieldId={id} label={labelText} tooltip={tooltip} text={textOf(registry)} />}
        </div>
      )}
      {hintId !== undefined && (
        <p id={hintId} className="field__hint">
          {hintTextOf(registry, options)}
        </p>
      )}
      {children}
      {errors}
    </div>
  );
}
