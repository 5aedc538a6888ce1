import { LEGACY_MARKETING_OPT_IN_NAMES } from '../entities/marketing-opt-ins';
import type { CalendarDay, ErrorKey } from '../validators';
import type { JsonSchema } from './json-schema';
import { MARKETING_OPT_IN_KEYS, type MarketingOptInKey } from './site-form-settings';
import { validateFormData } from './validate-form';

/**
 * The check of a partial save of a person's site attributes (docs/decisions/0010: "Saving only what
 * changed"): each key sent is checked on its own with the site's edit-profile schema, the schema the
 * browser renders, so the browser and the gateway refuse the same values. A key sent as `null`
 * removes the attribute unless the site makes it Mandatory. Pure: no clock, no I/O.
 */

/**
 * Besides the form's error keys: `notEditable` for keys the profile form never edits (SPEC §5),
 * `unknownAttribute` for a key this site's profile does not have, `notEnabled` for an opt-in the
 * site does not offer, `unknownCategory` for an offer category the site's locale group lacks.
 */
export type AttributeErrorKey = ErrorKey | 'notEditable' | 'unknownAttribute' | 'notEnabled' | 'unknownCategory';

export interface AttributeError {
  key: AttributeErrorKey;
  values?: Record<string, string | number>;
}

/** Errors by field path (`address.zipcode`, `marketing_opt_ins.sms`). */
export type AttributeErrors = Record<string, AttributeError>;

/** SPEC §5 "Profile form omits password, confirm password, email, national id and privacy policy". */
export const ATTRIBUTES_NEVER_EDITED_BY_PROFILE: readonly string[] = ['password', 'confirm_password', 'email', 'nationalId', 'pp'];

/** SPEC §2 locale xx_yy. */
const LOCALE = /^[a-z]{2}_[a-z]{2}$/;

export interface AttributeCheckInputs {
  /** The site's edit-profile schema (`buildFormSchema(site, locale, 'edit-profile').schema`). */
  schema: JsonSchema;
  /** The opt-ins the site enables (`readSiteFormSettings(site).marketingOptIns`). */
  marketingOptIns: readonly MarketingOptInKey[];
  /** Category ids of the site's locale group (SPEC §7); null skips the check (the caller has no list). */
  offerCategoryIds: readonly string[] | null;
  /** The day ages are computed on (SPEC §5 dob). */
  today?: CalendarDay | Date;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function validateAttributeChanges(changes: Readonly<Record<string, unknown>>, inputs: AttributeCheckInputs): AttributeErrors {
  const errors: AttributeErrors = {};
  const properties = inputs.schema.properties ?? {};
  const required = new Set(inputs.schema.required ?? []);
  for (const [key, value] of Object.entries(changes)) {
    if (ATTRIBUTES_NEVER_EDITED_BY_PROFILE.includes(key)) {
      errors[key] = { key: 'notEditable' };
    } else if (value === null) {
      // Saving the opt-ins drops their legacy names (ADR 0010), so removing one is always allowed.
      const removable = Object.hasOwn(LEGACY_MARKETING_OPT_IN_NAMES, key) || key === 'marketing_opt_ins' || key === 'locale' || Object.hasOwn(properties, key);
      if (!removable) errors[key] = { key: 'unknownAttribute' };
      else if (required.has(key)) errors[key] = { key: 'required' };
    } else if (key === 'locale') {
      if (typeof value !== 'string' || !LOCALE.test(value)) errors[key] = { key: 'invalid' };
    } else if (key === 'marketing_opt_ins') {
      Object.assign(errors, marketingOptInErrors(value, inputs.marketingOptIns));
    } else if (Object.hasOwn(properties, key)) {
      Object.assign(errors, propertyErrors(key, value, properties[key] ?? {}, required.has(key), inputs));
      if (key === 'offers_preference' && errors[key] === undefined) Object.assign(errors, categoryErrors(value, inputs.offerCategoryIds));
    } else {
      errors[key] = { key: 'unknownAttribute' };
    }
  }
  return errors;
}

/** ADR 0010 stored shape `{ email: { optin: true } }`, only for the opt-ins the site enables (SPEC §3). */
function marketingOptInErrors(value: unknown, enabled: readonly MarketingOptInKey[]): AttributeErrors {
  if (!isPlainObject(value)) return { marketing_opt_ins: { key: 'invalid' } };
  const errors: AttributeErrors = {};
  for (const [optIn, entry] of Object.entries(value)) {
    const path = `marketing_opt_ins.${optIn}`;
    if (!(MARKETING_OPT_IN_KEYS as readonly string[]).includes(optIn)) errors[path] = { key: 'unknownAttribute' };
    else if (!enabled.includes(optIn as MarketingOptInKey)) errors[path] = { key: 'notEnabled' };
    else if (!isPlainObject(entry) || typeof entry.optin !== 'boolean' || Object.keys(entry).length !== 1) errors[path] = { key: 'invalid' };
  }
  return errors;
}

function propertyErrors(key: string, value: unknown, schema: JsonSchema, isRequired: boolean, inputs: AttributeCheckInputs): AttributeErrors {
  const single: JsonSchema = { type: 'object', properties: { [key]: schema }, required: isRequired ? [key] : [] };
  return validateFormData(single, { [key]: value }, inputs.today === undefined ? {} : { today: inputs.today });
}

function categoryErrors(value: unknown, known: readonly string[] | null): AttributeErrors {
  if (known === null || !Array.isArray(value)) return {};
  return value.every((id) => typeof id === 'string' && known.includes(id)) ? {} : { offers_preference: { key: 'unknownCategory' } };
}
