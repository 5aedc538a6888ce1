import type { JsonSchema } from '../../../../schemas/forms/json-schema';
import { applyMask } from '../../../../schemas/site-config/mask';
import { validateField, type RuleName } from '../../../../schemas/validators';

/**
 * A valid value for a field of a site's form, chosen by the field's own rule (`x-rule` and its
 * options, as `buildFormSchema` emits them): the first candidate the SPEC §5 validator accepts
 * with the site's mask, regexp and lengths. So a new site, or a changed mask or regexp, needs no
 * test edit; a site no candidate fits fails loudly, naming the field, instead of being skipped.
 */
const CANDIDATES: Partial<Record<RuleName, readonly string[]>> = {
  // US (NANP), Brazil mobile, Qatar, Hong Kong, Colombia mobile, UK, Germany.
  phone: ['2125550123', '11987654321', '55123456', '23456789', '3001234567', '01632960123', '+49301234567', '030 1234567'],
  // A valid CPF, a valid SSN, Qatar (11 digits, 2 or 3 first), Hong Kong HKID, Colombia cédula.
  nationalId: ['52998224725', '501234567', '28412345678', 'A123456(7)', '1234567890'],
  // US, Brazil (CEP), Canada, UK, Colombia.
  postalCode: ['22201', '01310100', 'K1A0B1', 'SW1A1AA', '110111'],
};

/** Address parts that read like a real address and pass SPEC §5's address rule. */
const ADDRESS_VALUES: Readonly<Record<string, string>> = {
  street: 'Harbour Street',
  number: '1578',
  additionalInformation: 'Flat 4',
  neighborhood: 'Bela Vista',
  city: 'Springfield',
  state: 'SP',
};

export const JOURNEY_PASSWORD = 'Sunny-Day-42';
/** ISO date; the dob widget is filled part by part in the site's order. Old enough for every dob_min_age. */
export const JOURNEY_DOB = { yyyy: '1988', mm: '04', dd: '12' } as const;

export interface FieldValue {
  /** What is typed (digits for a masked field: the widget formats them). */
  typed: string;
  /** What the field shows afterwards (the site's mask applied). */
  shown: string;
}

const plain = (value: string): FieldValue => ({ typed: value, shown: value });

function maskOf(schema: JsonSchema): string | null {
  const mask = schema['x-rule']?.options?.mask;
  return typeof mask === 'string' && mask !== '' ? mask : null;
}

/** The first candidate the field's rule accepts, as typed and as shown under the site's mask. */
function firstValid(key: string, schema: JsonSchema, candidates: readonly string[]): FieldValue {
  const rule = schema['x-rule'];
  if (!rule) throw new Error(`field ${key} has no x-rule`);
  const mask = maskOf(schema);
  for (const typed of candidates) {
    const shown = mask ? applyMask(mask, typed) : typed;
    if (shown !== '' && validateField(shown, { rule: rule.name, options: rule.options ?? {}, required: true }) === null) return { typed, shown };
  }
  throw new Error(`no valid test value for ${key} (${rule.name} ${JSON.stringify(rule.options)}): add a candidate in field-values.ts`);
}

/**
 * The value for a text field of the registration or edit-profile form, or null for a field that
 * is not typed into (selects, checkboxes, groups, hidden fields).
 */
export function textValueFor(key: string, schema: JsonSchema, email: string, names: { first: string; last: string }): FieldValue | null {
  const rule = schema['x-rule']?.name;
  switch (rule) {
    case 'name':
      return plain(key === 'first_name' ? names.first : key === 'last_name' ? names.last : 'Harbour Trust');
    case 'addressPart':
      return plain(ADDRESS_VALUES[key] ?? 'North');
    case 'email':
      return plain(email);
    case 'password':
    case 'confirmPassword':
      return plain(JOURNEY_PASSWORD);
    case 'bin': {
      const length = Number(schema['x-rule']?.options?.binLength ?? 9);
      return firstValid(key, schema, [`4${'12345678901234567'.slice(0, length - 1)}`]);
    }
    case 'phone':
    case 'nationalId':
    case 'postalCode':
      return firstValid(key, schema, CANDIDATES[rule] ?? []);
    default:
      return null;
  }
}
