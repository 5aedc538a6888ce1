import type { JsonSchema } from '../../../../schemas/forms/json-schema';
import { DEFAULT_BIN_LENGTH, validateField } from '../../../../schemas/validators';
import { generatedFieldValue, type FieldValue } from '../../../../schemas/forms/generated-values';
import { eligibleBin } from './test-cards';

export type { FieldValue } from '../../../../schemas/forms/generated-values';

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

const plain = (value: string): FieldValue => ({ typed: value, shown: value, stored: value });

/** The bin (SPEC §5: `binLength` digits starting with 4): the prefix of a card the site accepts, checked by the field's own rule. */
function binValue(key: string, schema: JsonSchema, siteId: string): FieldValue {
  const rule = schema['x-rule'];
  const bin = eligibleBin(siteId, Number(rule?.options?.binLength ?? DEFAULT_BIN_LENGTH));
  if (validateField(bin, { rule: 'bin', options: rule?.options ?? {}, required: true }) !== null) {
    throw new Error(`the bin ${bin} of fixtures/bin-ranges.json does not pass ${key}'s rule ${JSON.stringify(rule?.options)}`);
  }
  return plain(bin);
}

/**
 * The value for a text field of the registration or edit-profile form, or null for a field that
 * is not typed into (selects, checkboxes, groups, hidden fields).
 */
export function textValueFor(key: string, schema: JsonSchema, siteId: string, email: string, names: { first: string; last: string }): FieldValue | null {
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
    case 'bin':
      return binValue(key, schema, siteId);
    case 'phone':
    case 'nationalId':
    case 'postalCode':
      return generatedFieldValue(key, schema);
    default:
      return null;
  }
}
