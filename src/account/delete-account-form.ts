import type { FormSchema } from '../../schemas/forms/json-schema';
import { formWithoutFields } from './form-without-fields';

/** The explicit "I understand" of delete-profile: a checkbox that must be ticked (`const: true`, like §5's privacy policy A). */
export const DELETE_CONFIRM_FIELD = 'confirmDelete';

/**
 * ADR 0009 "Deletion: proof of presence": the delete-profile form from the site's own forms, the
 * current-password field of its `change-password` form (or, for a person without a password here,
 * the code field of its `passcode` form), then the confirmation checkbox.
 */
export function deleteAccountForm(proofForm: FormSchema, proof: 'password' | 'passcode'): FormSchema {
  const form = proof === 'password' ? formWithoutFields(proofForm, ['password', 'confirm_password']) : proofForm;
  const order: unknown = form.uiSchema['ui:order'];
  return {
    schema: {
      ...form.schema,
      properties: { ...form.schema.properties, [DELETE_CONFIRM_FIELD]: { type: 'boolean', const: true } },
      required: [...(form.schema.required ?? []), DELETE_CONFIRM_FIELD],
    },
    uiSchema: {
      ...form.uiSchema,
      [DELETE_CONFIRM_FIELD]: { 'ui:widget': 'checkbox', 'ui:options': { labelKey: 'label.delete_confirm' } },
      ...(Array.isArray(order) ? { 'ui:order': [...(order as unknown[]), DELETE_CONFIRM_FIELD] } : {}),
    },
  };
}
