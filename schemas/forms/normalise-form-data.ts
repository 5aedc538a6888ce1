/**
 * The one normalisation a site may ask of a typed value before it is validated and stored:
 * upper-casing (`national_id_uppercase`, `postal_code_uppercase`, user_enrollment of SPEC §3), so
 * "k1a 0b1" typed for an upper-case pattern is "K1A 0B1". The widget applies it as the person types
 * (`upperCaseLetters`); the gateway applies `normaliseFormData` to a payload before it validates
 * it, so the browser and the server agree on the value as well as on the verdict.
 */
import type { JsonSchema } from './json-schema';

/**
 * ASCII letters only: the patterns that ask for upper case name `[A-Z]`, and a change of ASCII
 * case keeps the length (the caret stays put) and is the same in every locale (no Turkish İ).
 */
export function upperCaseLetters(text: string): string {
  return text.replace(/[a-z]+/g, (letters) => letters.toUpperCase());
}

/** True when the field's rule asks for its letters in upper case (`x-rule.options.uppercase`). */
export function asksForUpperCase(schema: JsonSchema): boolean {
  return schema['x-rule']?.options?.uppercase === true;
}

/** The payload with every upper-case field's text upper-cased; anything else, and any non-text value, as it was. */
export function normaliseFormData<Data>(schema: JsonSchema, data: Data): Data {
  if (schema.type === 'object') {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
    const properties = schema.properties ?? {};
    const normalised: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(data)) {
      const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
      normalised[key] = property ? normaliseFormData(property, value) : value;
    }
    return normalised as Data;
  }
  return typeof data === 'string' && asksForUpperCase(schema) ? (upperCaseLetters(data) as Data) : data;
}
