/**
 * The normalisations of a typed value before it is validated and stored: a name loses the spaces at its ends
 * (`trimsSpaces`), and a site may ask for upper-casing (`national_id_uppercase`, `postal_code_uppercase`, user_enrollment of SPEC §3), so
 * "k1a 0b1" typed for an upper-case pattern is "K1A 0B1". The widget applies it as the person types
 * (`upperCaseLetters`); the gateway applies `normaliseFormData` to a payload before it validates
 * it, so the browser and the server agree on the value as well as on the verdict. A date of birth is
 * stored in SPEC §9's YYYY-MM-DD, its one-digit month and day zero-padded (`canonicalDob`).
 */
import { canonicalDob } from '../validators';
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

/**
 * True for a person's name (`x-rule` `name`: first_name, last_name, bank): its spaces at either end are never part
 * of it, so "  Zoë  " is stored, shown and counted as "Zoë" by the browser and the gateway alike.
 */
export function trimsSpaces(schema: JsonSchema): boolean {
  return schema['x-rule']?.name === 'name';
}

/**
 * The payload with every name trimmed at both ends, every upper-case field's text upper-cased and every date of birth
 * in YYYY-MM-DD; anything else, and any non-text value, as it was.
 */
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
  if (typeof data !== 'string') return data;
  if (schema['x-rule']?.name === 'dob') return canonicalDob(data) as Data;
  const trimmed = trimsSpaces(schema) ? data.trim() : data;
  return (asksForUpperCase(schema) ? upperCaseLetters(trimmed) : trimmed) as Data;
}
