import type { FormSchema } from '../../schemas/forms/json-schema';

/**
 * A site form with some fields left out, for a step where they are already known (step-by-step
 * recovery: reset-password after find-code accepted the passcode; compromised-credentials, where
 * the session stands for the current password). The rest keeps the site's rules and order.
 */
export function formWithoutFields(form: FormSchema, names: readonly string[]): FormSchema {
  const left = (name: string) => !names.includes(name);
  const properties = Object.fromEntries(Object.entries(form.schema.properties ?? {}).filter(([name]) => left(name)));
  const uiSchema = Object.fromEntries(Object.entries(form.uiSchema).filter(([name]) => left(name)));
  const order = form.uiSchema['ui:order'];
  return {
    schema: { ...form.schema, properties, ...(form.schema.required ? { required: form.schema.required.filter(left) } : {}) },
    uiSchema: Array.isArray(order) ? { ...uiSchema, 'ui:order': order.filter((name) => typeof name !== 'string' || left(name)) } : uiSchema,
  };
}
