import type { CustomValidator, ErrorTransformer, RJSFSchema, RJSFValidationError, UiSchema, ValidationData, ValidatorType } from '@rjsf/utils';
import { createErrorHandler, getDefaultFormState, toErrorSchema, unwrapErrorHandler, validationDataMerge } from '@rjsf/utils';
import type { JsonSchema } from '../../schemas/forms/json-schema';
import { normaliseFormData } from '../../schemas/forms/normalise-form-data';
import { validateFormData as checkFormData, type FormErrors } from '../../schemas/forms/validate-form';
import type { CalendarDay } from '../../schemas/validators';
import { screenOrder } from './screen-order';

/**
 * RJSF's `ValidatorType` backed by the translator's own interpreter (schemas/forms/validate-form.ts)
 * instead of ajv: no code generation, so the form runs under a CSP without `unsafe-eval`, and the
 * browser checks exactly what the gateway checks. See docs/decisions/0006-eval-free-form-validation.md.
 *
 * Each RJSF error carries our FieldError: `name` is its key (SPEC §5, §8: `required`, `mustMatch`,
 * `passwordRulesError`, …), `params` its placeholder values, `property` the field (`.address.zipcode`).
 * `message` is the key too; a `transformErrors` turns it into the reader's language, as with ajv.
 */

/** The day ages are computed on (SPEC §5 dob): asked at every validation, so tests control the clock. */
export type TodayProvider = () => CalendarDay | Date;

export interface EvalFreeValidatorOptions {
  today?: TodayProvider;
}

/** Today in the person's own calendar, not UTC: a birthday starts at their midnight. */
export function localCalendarDay(now: Date = new Date()): CalendarDay {
  return { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() };
}

/** Our FieldErrors as RJSF errors, sorted into screen order (`ui:order`, nested objects in place). */
function toValidationErrors(errors: FormErrors, schema: RJSFSchema, uiSchema?: UiSchema): RJSFValidationError[] {
  const rank = new Map(screenOrder(schema, uiSchema).map((path, index) => [path, index]));
  return Object.entries(errors)
    .map(([path, error], index) => ({ path, error, index }))
    .sort((a, b) => (rank.get(a.path) ?? Infinity) - (rank.get(b.path) ?? Infinity) || a.index - b.index)
    .map(({ path, error }) => {
      const property = path === '' ? '' : `.${path}`;
      return { name: error.key, params: error.values ?? {}, property, message: error.key, stack: `${property} ${error.key}`.trim() };
    });
}

/** A schema of any type checked as the interpreter expects one: a root object. */
function asRootSchema(schema: RJSFSchema, formData: unknown): { root: JsonSchema; data: unknown } {
  return schema.type === 'object'
    ? { root: schema as JsonSchema, data: formData }
    : { root: { type: 'object', properties: { value: schema as JsonSchema } }, data: { value: formData } };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- RJSF's ValidatorType defaults its form data to any; ours matches @rjsf/validator-ajv8
export function createEvalFreeValidator<T = any>(options: EvalFreeValidatorOptions = {}): ValidatorType<T> {
  const today = options.today ?? (() => localCalendarDay());
  const check = (schema: RJSFSchema, formData: unknown): FormErrors => {
    const { root, data } = asRootSchema(schema, formData);
    // The data as it will be sent (names trimmed, letters upper-cased where asked), as the gateway checks it.
    return checkFormData(root, normaliseFormData(root, data), { today: today() });
  };

  const validator: ValidatorType<T> = {
    validateFormData(
      formData: T | undefined,
      schema: RJSFSchema,
      customValidate?: CustomValidator<T>,
      transformErrors?: ErrorTransformer<T>,
      uiSchema?: UiSchema<T>,
    ): ValidationData<T> {
      let errors = toValidationErrors(check(schema, formData), schema, uiSchema);
      if (transformErrors) errors = transformErrors(errors, uiSchema);
      const errorSchema = toErrorSchema<T>(errors);
      if (!customValidate) return { errors, errorSchema };
      // As RJSF's ajv8 validator does: custom rules see every field, defaults filled in.
      const withDefaults = getDefaultFormState<T>(validator, schema, formData, schema, true) as T;
      const handler = customValidate(withDefaults, createErrorHandler<T>(withDefaults), uiSchema, errorSchema);
      return validationDataMerge<T>({ errors, errorSchema }, unwrapErrorHandler<T>(handler));
    },

    isValid(schema: RJSFSchema, formData: T | undefined): boolean {
      return Object.keys(check(schema, formData)).length === 0;
    },

    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- RJSF's ValidatorType declares rawValidation generic
    rawValidation<Result = RJSFValidationError>(schema: RJSFSchema, formData?: T): { errors?: Result[] } {
      const errors = toValidationErrors(check(schema, formData), schema);
      return { errors: errors.length > 0 ? (errors as Result[]) : undefined };
    },
  };
  return validator;
}
