import type { Registry } from '@rjsf/utils';
import { helpId } from '@rjsf/utils';
import type { ExpectedFormat } from '../../schemas/forms/expected-format';
import { textOf } from './form-context';
import type { TextValues } from './form-texts';

/**
 * A field's expected format (schemas/forms/expected-format.ts, SPEC §5) as the form shows it: the
 * hint under the label, which the input names in aria-describedby, and the words of its `invalid`
 * error. Read defensively: a uiSchema is data.
 */
type UiOptions = { readonly [option: string]: unknown };

/** Reads back the expected format `expectedFormatOf` (schemas/forms/expected-format.ts) put in a field's `ui:options`. */
export function readExpectedFormat(options: UiOptions | undefined): ExpectedFormat | null {
  const expected = options?.expectedFormat;
  if (typeof expected !== 'object' || expected === null) return null;
  const { hintKey, errorKey, values } = expected as Partial<Record<keyof ExpectedFormat, unknown>>;
  return {
    ...(typeof hintKey === 'string' ? { hintKey } : {}),
    ...(typeof errorKey === 'string' ? { errorKey } : {}),
    values: typeof values === 'object' && values !== null ? (values as ExpectedFormat['values']) : {},
  };
}

/** Unicode's left-to-right isolate and its end: "(00) 00000-0000" keeps its order inside an Arabic sentence. */
const LEFT_TO_RIGHT_ISOLATE = '\u2066';
const POP_DIRECTIONAL_ISOLATE = '\u2069';

/**
 * Placeholder values of the hint and error texts: numbers as they are, an example or a mask
 * isolated left to right (they are written left to right on every page, SPEC §5 number-like inputs).
 */
export function expectedFormatValues(expected: ExpectedFormat): TextValues {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(expected.values)) {
    if (typeof value === 'number') values[name] = value;
    else if (typeof value === 'string') values[name] = `${LEFT_TO_RIGHT_ISOLATE}${value}${POP_DIRECTIONAL_ISOLATE}`;
  }
  return values;
}

/** The hint text of a field, or undefined when it has none. */
export function hintTextOf(registry: Registry, options: UiOptions): string | undefined {
  const expected = readExpectedFormat(options);
  return expected?.hintKey === undefined ? undefined : textOf(registry)(expected.hintKey, expectedFormatValues(expected));
}

/** The id of a field's hint (RJSF's help id, `root_phone__help`), when the field shows one. */
export function hintIdOf(id: string, options: UiOptions | undefined): string | undefined {
  return readExpectedFormat(options)?.hintKey === undefined ? undefined : helpId(id);
}
