import type { ObjectFieldTemplateProps } from '@rjsf/utils';
import { getUiOptions } from '@rjsf/utils';
import { labelOf } from '../form-engine/form-context';

/** The form's fields in screen order; a nested object (the address) is a fieldset named by its legend. */
export function ObjectFieldTemplate({ properties, title, uiSchema, registry, fieldPathId }: ObjectFieldTemplateProps) {
  const fields = properties.map((property) => property.content);
  if (fieldPathId.path.length === 0) return <div className="site-form__fields">{fields}</div>;
  return (
    <fieldset id={fieldPathId.$id} className="fieldset">
      <legend className="fieldset__legend">{labelOf(registry, getUiOptions(uiSchema), title)}</legend>
      {fields}
    </fieldset>
  );
}
