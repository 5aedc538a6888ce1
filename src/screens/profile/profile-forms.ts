import type { FormSchema } from '../../../schemas/forms/json-schema';

/**
 * Marketing opt-ins and offer preferences have screens of their own (the profile's opt-ins panel,
 * site-settings): ADR 0010 keeps them editable where the profile form is not (`updatable` "false"),
 * so edit-profile leaves them out and each is edited in one place only.
 */
export const EDITED_ELSEWHERE: readonly string[] = ['marketing_opt_ins', 'offers_preference'];

/** The site's edit-profile form without the fields edited elsewhere. */
export function withoutFieldsEditedElsewhere(form: FormSchema): FormSchema {
  const properties = Object.fromEntries(Object.entries(form.schema.properties ?? {}).filter(([key]) => !EDITED_ELSEWHERE.includes(key)));
  const order = Array.isArray(form.uiSchema['ui:order']) ? (form.uiSchema['ui:order'] as string[]) : [];
  const uiSchema = Object.fromEntries(Object.entries(form.uiSchema).filter(([key]) => !EDITED_ELSEWHERE.includes(key)));
  return {
    schema: { ...form.schema, properties, required: (form.schema.required ?? []).filter((key) => !EDITED_ELSEWHERE.includes(key)) },
    uiSchema: { ...uiSchema, 'ui:order': order.filter((key) => !EDITED_ELSEWHERE.includes(key)) },
  };
}

/** One field of the site's edit-profile form as a form of its own (same schema, widget and rules); null when the site does not show it. */
export function singleFieldForm(form: FormSchema, key: string): FormSchema | null {
  const schema = form.schema.properties?.[key];
  if (schema === undefined) return null;
  const required = (form.schema.required ?? []).includes(key) ? [key] : [];
  return {
    schema: { type: 'object', properties: { [key]: schema }, required, additionalProperties: false },
    uiSchema: { 'ui:order': [key], [key]: form.uiSchema[key] ?? {} },
  };
}
