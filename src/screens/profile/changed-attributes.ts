import type { UserProfile } from '../../../schemas/entities/user-profile';
import type { JsonSchema } from '../../../schemas/forms/json-schema';
import { canonicalDob } from '../../../schemas/validators';

/**
 * What the edit-profile form starts from and what it sends (ADR 0010 "Saving only what changed").
 * Pure, so the changed-keys rule is tested without a form.
 */
export type AttributeValues = Record<string, unknown>;

/** SPEC §3 global profile fields and where the profile (`user-mgmt/user/find`) keeps them. */
const PROFILE_FIELD_OF: Readonly<Record<string, keyof UserProfile>> = {
  first_name: 'firstName',
  last_name: 'lastName',
  dob: 'dob',
  title: 'title',
  gender: 'gender',
};

/** A value as it is in an enum of the form ("Ms" stored, "ms" offered), else as stored. */
function asEnumValue(schema: JsonSchema | undefined, value: unknown): unknown {
  if (typeof value !== 'string' || schema?.enum === undefined) return value;
  return schema.enum.find((option) => option.toLowerCase() === value.toLowerCase()) ?? value;
}

/**
 * The form's first data: each of its fields from the site attributes, else from the profile (SPEC §3:
 * dob its first 10 characters, in SPEC §9's YYYY-MM-DD even when stored as typed, "1980-1-1"), else its schema
 * default (the hidden `locale` is the page's).
 */
export function initialAttributeValues(schema: JsonSchema, attributes: Readonly<AttributeValues>, profile: UserProfile | null): AttributeValues {
  const properties = schema.properties ?? {};
  const values: AttributeValues = {};
  for (const [key, fieldSchema] of Object.entries(properties)) {
    const profileField = PROFILE_FIELD_OF[key];
    let value: unknown = attributes[key] ?? (profileField && profile ? profile[profileField] : undefined) ?? fieldSchema.default;
    if (key === 'dob' && typeof value === 'string') value = canonicalDob(value.slice(0, 10));
    value = asEnumValue(fieldSchema, value);
    if (value !== undefined && value !== null) values[key] = value;
  }
  return values;
}

/** '' and {} (an object of empty parts) mean "nothing", as RJSF leaves an emptied field. */
function normalized(value: unknown): unknown {
  if (value === undefined || value === null || value === '') return undefined;
  if (Array.isArray(value)) return value;
  if (typeof value === 'object') {
    const parts = Object.entries(value as Record<string, unknown>)
      .map(([key, part]) => [key, normalized(part)] as const)
      .filter(([, part]) => part !== undefined)
      .sort(([a], [b]) => a.localeCompare(b));
    return parts.length === 0 ? undefined : Object.fromEntries(parts);
  }
  return value;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(normalized(a)) === JSON.stringify(normalized(b));
}

/**
 * The keys the person changed with their new values; an emptied field is sent as null (ADR 0010:
 * removed unless the site makes it Mandatory, which the form and the gateway both refuse).
 */
export function changedAttributes(initial: Readonly<AttributeValues>, current: Readonly<AttributeValues>): AttributeValues {
  const changed: AttributeValues = {};
  for (const key of new Set([...Object.keys(initial), ...Object.keys(current)])) {
    if (sameValue(initial[key], current[key])) continue;
    changed[key] = normalized(current[key]) ?? null;
  }
  return changed;
}
