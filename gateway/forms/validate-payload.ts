import { lookupBinRange } from '../../schemas/cards/bin-ranges';
import { buildFormSchema } from '../../schemas/forms/build-form-schema';
import { readSiteFormSettings } from '../../schemas/forms/site-form-settings';
import type { FormName } from '../../schemas/forms/form-names';
import type { FormSchema } from '../../schemas/forms/json-schema';
import { normaliseFormData } from '../../schemas/forms/normalise-form-data';
import { validateFormData } from '../../schemas/forms/validate-form';
import type { Fixtures } from '../site-files/load-fixtures';
import { HttpError } from '../http/errors';
import { DEFAULT_LOCALE, LOCALE_PATTERN } from '../locale';

/**
 * The gateway enforces the very schema the browser renders (DESIGN "One schema, two places";
 * ADR 0006): it rebuilds the site's form schema and validates a payload before anything
 * touches the database. Every write of later issues goes through `assertValidPayload`.
 */

/** Schemas are pure functions of (site, locale, form): build each once. Bounded by sites x locales x forms. */
const schemaCache = new Map<string, FormSchema>();
const SCHEMA_CACHE_LIMIT = 5_000;

export interface PayloadTarget {
  siteId: string;
  locale: string;
  form: FormName;
}

export function formSchemaFor(fixtures: Fixtures, target: PayloadTarget): FormSchema {
  const site = fixtures.sites.get(target.siteId)?.config ?? fixtures.defaultSite.config;
  const locale = LOCALE_PATTERN.test(target.locale) ? target.locale : DEFAULT_LOCALE;
  const cacheKey = `${site.siteId}\u0000${locale}\u0000${target.form}`;
  let schema = schemaCache.get(cacheKey);
  if (!schema) {
    schema = buildFormSchema(site, locale, target.form);
    if (schemaCache.size >= SCHEMA_CACHE_LIMIT) schemaCache.clear();
    schemaCache.set(cacheKey, schema);
  }
  return schema;
}

/**
 * The payload as the site's form normalises it (letters upper-cased where the site asks,
 * schemas/forms/normalise-form-data.ts, as the browser does while the person types): the value
 * that is validated is the value that is stored.
 */
export function normalisedPayload<Payload>(fixtures: Fixtures, target: PayloadTarget, payload: Payload): Payload {
  return normaliseFormData(formSchemaFor(fixtures, target).schema, payload);
}

/** Field path -> error key (SPEC §5/§8 keys) of the normalised payload, empty when it is valid. */
export function payloadErrors(fixtures: Fixtures, target: PayloadTarget, payload: unknown, today: Date): Record<string, string> {
  const schema = formSchemaFor(fixtures, target).schema;
  const normalised = normaliseFormData(schema, payload);
  const errors = validateFormData(schema, normalised, { today });
  const fields: Record<string, string> = Object.fromEntries(Object.entries(errors).map(([path, error]) => [path === '' ? 'body' : path, error.key]));
  return { ...fields, ...sixDigitVerificationErrors(fixtures, target.siteId, normalised, fields) };
}

/**
 * SPEC §5 "Some sites require six-digit verification" (ADR 0001 `six_digit_verification`): the six digits
 * of a well-formed bin field must be the prefix of a card the BIN table makes eligible on the site. The
 * browser has no BIN table, so this is the gateway's part (registration, every form payload, the profile's
 * attribute saves); the field says `binNotEligible`. `known`: fields already refused, left as they are.
 */
export function sixDigitVerificationErrors(
  fixtures: Fixtures,
  siteId: string,
  payload: unknown,
  known: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const site = fixtures.sites.get(siteId)?.config ?? fixtures.defaultSite.config;
  if (!readSiteFormSettings(site).sixDigitVerification || typeof payload !== 'object' || payload === null) return {};
  const errors: Record<string, string> = {};
  for (const key of ['bin', 'ninedigitbin'] as const) {
    const value = (payload as Record<string, unknown>)[key];
    if (typeof value !== 'string' || value === '' || known[key] !== undefined) continue;
    if (!lookupBinRange(fixtures.binRanges, value, site.siteId).eligible) errors[key] = 'binNotEligible';
  }
  return errors;
}

/** Throws 400 VALIDATION_FAILED naming every refused field; returns quietly when the payload is valid. */
export function assertValidPayload(fixtures: Fixtures, target: PayloadTarget, payload: unknown, today: Date): void {
  const fields = payloadErrors(fixtures, target, payload, today);
  const names = Object.keys(fields);
  if (names.length > 0) {
    throw new HttpError(400, 'VALIDATION_FAILED', `These fields are not valid: ${names.join(', ')}.`, fields);
  }
}
