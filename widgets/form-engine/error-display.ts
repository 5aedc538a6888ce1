import type { ErrorSchema, ErrorTransformer, RJSFValidationError, UiSchema } from '@rjsf/utils';
import { DEFAULT_ID_PREFIX, DEFAULT_ID_SEPARATOR, toErrorSchema, toPath } from '@rjsf/utils';
import { readExpectedFormat, expectedFormatValues } from './expected-format-hint';
import type { TextLookup, TextValues } from './form-texts';

/** The id RJSF gives the field an error is about (`.address.zipcode` gives `root_address_zipcode`). */
function fieldIdOf(property: string | undefined, idPrefix: string): string {
  return [idPrefix, ...toPath(property ?? '')].join(DEFAULT_ID_SEPARATOR);
}

/**
 * The errors a person may see before they first submit: those of the fields they have left
 * (an error is shown after the person leaves its field, never before).
 */
export function errorsOfLeftFields(errors: readonly RJSFValidationError[], leftFieldIds: ReadonlySet<string>, idPrefix = DEFAULT_ID_PREFIX): ErrorSchema {
  return toErrorSchema(errors.filter((error) => leftFieldIds.has(fieldIdOf(error.property, idPrefix))));
}

/**
 * RJSF's `transformErrors` for the eval-free validator: the message of each error is the content
 * text of its key (SPEC §5, §8 keys: `required`, `mustMatch`, `invalidAgeError`…), placeholders filled
 * from its params (`{{count}}`, `{{age}}`).
 */
export function localizeErrors(text: TextLookup): ErrorTransformer {
  return (errors, uiSchema) =>
    errors.map((error) => {
      const options = fieldOptions(uiSchema, error.property);
      const expected = readExpectedFormat(options);
      // SPEC §5: a formatted field's `invalid` names the shape it expects ("Enter it like 12345678-9").
      const expectedKey = error.name === 'invalid' && expected?.errorKey !== undefined ? expected.errorKey : undefined;
      const key = expectedKey ?? fieldErrorTextKeys(options)[String(error.name)] ?? String(error.name);
      const values =
        expectedKey !== undefined && expected
          ? { ...expectedFormatValues(expected), ...(error.params as TextValues | undefined) }
          : (error.params as TextValues | undefined);
      const message = text(key, values);
      return { ...error, message, stack: `${error.property ?? ''} ${message}`.trim() };
    });
}

/**
 * A field may name its own text for an error key (`ui:options.errorTextKeys`, e.g. a bin's `invalid`
 * is `binError`, SPEC §8), so one rule's generic key can read as the field's own message.
 */
function fieldErrorTextKeys(options: FieldOptions | undefined): Readonly<Record<string, string>> {
  const keys = options?.errorTextKeys;
  return typeof keys === 'object' && keys !== null ? (keys as Record<string, string>) : {};
}

type FieldOptions = { readonly [option: string]: unknown };

/** The `ui:options` of the field an error is about (`.address.zipcode`). */
function fieldOptions(uiSchema: UiSchema | undefined, property: string | undefined): FieldOptions | undefined {
  let node: unknown = uiSchema;
  for (const segment of toPath(property ?? '')) node = (node as Record<string, unknown> | undefined)?.[segment];
  return (node as { 'ui:options'?: FieldOptions } | undefined)?.['ui:options'];
}
