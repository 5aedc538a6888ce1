import { checkRequired, compileSiteRegExp, fieldError, isStorableText, tooLong, validateField, type CalendarDay, type FieldError } from '../validators';
import type { JsonSchema } from './json-schema';

/**
 * The form validator for the schemas the translator emits, in the browser and in the gateway. It interprets
 * the small JSON Schema subset of json-schema.ts directly and dispatches `x-rule` to the SPEC §5
 * validators, so it needs no code generation (no `eval`/`new Function`: the app runs under a CSP
 * without unsafe-eval, docs/decisions/0006-eval-free-form-validation.md) and a configuration change
 * takes effect without a rebuild. The browser (through widgets/form-engine) and the gateway call it.
 */

/** Errors by field path (`address.zipcode`), in the schema's property order, which is screen order. */
export type FormErrors = Record<string, FieldError>;

export interface FormValidationInputs {
  /** The day ages are computed on (SPEC §5 dob); the caller's clock, never read here. */
  today?: CalendarDay | Date;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  // Stryker disable next-line ConditionalExpression: validateObject reads null as {} before asking, so no null reaches here
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function validateFormData(schema: JsonSchema, data: unknown, inputs: FormValidationInputs = {}): FormErrors {
  const errors: FormErrors = {};
  validateObject(schema, data, '', errors, inputs);
  return errors;
}

export function isFormValid(schema: JsonSchema, data: unknown, inputs: FormValidationInputs = {}): boolean {
  return Object.keys(validateFormData(schema, data, inputs)).length === 0;
}

function validateObject(schema: JsonSchema, data: unknown, prefix: string, errors: FormErrors, inputs: FormValidationInputs): void {
  if (data === undefined || data === null) data = {};
  if (!isPlainObject(data)) {
    errors[prefix] = fieldError('invalid');
    return;
  }
  const properties = schema.properties ?? {};
  // Stryker disable next-line ArrayDeclaration: a filler name in the empty set only matters for a property of that name
  const required = new Set(schema.required ?? []);
  for (const [key, propertySchema] of Object.entries(properties)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const error = validateProperty(propertySchema, data[key], required.has(key), data, path, errors, inputs);
    if (error) errors[path] = error;
  }
  if (schema.additionalProperties === false) {
    // A field the form does not have is refused by name, never silently stored.
    for (const key of Object.keys(data)) {
      if (!Object.hasOwn(properties, key)) errors[prefix === '' ? key : `${prefix}.${key}`] = fieldError('invalid');
    }
  }
}

function validateProperty(
  schema: JsonSchema,
  value: unknown,
  required: boolean,
  siblings: Record<string, unknown>,
  path: string,
  errors: FormErrors,
  inputs: FormValidationInputs,
): FieldError | null {
  switch (schema.type) {
    case 'object':
      if (value === undefined && !required) return null;
      validateObject(schema, value, path, errors, inputs);
      return null;
    case 'boolean':
      return validateBoolean(schema, value, required);
    case 'array':
      return validateArray(schema, value, required);
    default:
      return validateString(schema, value, required, siblings, inputs);
  }
}

function validateBoolean(schema: JsonSchema, value: unknown, required: boolean): FieldError | null {
  if (value === undefined) return required ? fieldError('required') : null;
  if (typeof value !== 'boolean') return fieldError('invalid');
  // A required checkbox with `const: true` (privacy policy A, SPEC §5) is "required" until ticked.
  if (schema.const !== undefined && value !== schema.const) return fieldError('required');
  return null;
}

function validateArray(schema: JsonSchema, value: unknown, required: boolean): FieldError | null {
  if (value === undefined) return required ? fieldError('required') : null;
  if (!Array.isArray(value)) return fieldError('invalid');
  if (required && value.length === 0) return fieldError('required');
  if (schema.maxItems !== undefined && value.length > schema.maxItems) return fieldError('invalid');
  if (schema.uniqueItems && new Set(value).size !== value.length) return fieldError('invalid');
  const items = schema.items;
  if (items) {
    for (const item of value) {
      if (validateString(items, item, true, {}, {}) !== null) return fieldError('invalid');
    }
  }
  return null;
}

function validateString(
  schema: JsonSchema,
  value: unknown,
  required: boolean,
  siblings: Record<string, unknown>,
  inputs: FormValidationInputs,
): FieldError | null {
  const rule = schema['x-rule'];
  if (rule) {
    const matchField = rule.options?.matchField;
    const matchValue = typeof matchField === 'string' ? siblings[matchField] : undefined;
    const error = validateField(
      value,
      { rule: rule.name, options: rule.options, required },
      {
        today: inputs.today,
        // Stryker disable next-line ConditionalExpression: validateField drops a matchValue that is not text either
        matchValue: typeof matchValue === 'string' ? matchValue : undefined,
      },
    );
    if (error) return error;
    return typeof value === 'string' && schema.maxLength !== undefined && value.length > schema.maxLength ? tooLong(schema.maxLength) : null;
  }
  if (value === undefined || value === null || value === '') return checkRequired(value, required);
  if (typeof value !== 'string') return fieldError('invalid');
  // ADR 0005 "Characters": fields without a rule (a current password, a code) still hold no control character.
  if (!isStorableText(value)) return fieldError('invalidCharacter');
  // SPEC §5: selects only ever show the required message; a value outside the list is still refused.
  if (schema.enum && !schema.enum.includes(value)) return fieldError('invalid');
  // Stryker disable next-line ConditionalExpression: without a maxLength the comparison with undefined is false anyway
  if (schema.maxLength !== undefined && value.length > schema.maxLength) return tooLong(schema.maxLength);
  // Stryker disable next-line ConditionalExpression: without a minLength the comparison with undefined is false anyway
  if (schema.minLength !== undefined && value.length < schema.minLength) return fieldError('invalid');
  if (schema.pattern !== undefined) {
    const pattern = compileSiteRegExp(schema.pattern);
    if (!pattern || !pattern.test(value)) return fieldError('invalid');
  }
  return null;
}
