import type { SiteConfig } from '../site-config/types';
import type { RuleName } from '../validators';
import type { FormName } from './form-names';
import { DEFAULT_MAX_LENGTH, type FormSchema, type JsonSchema, type RuleOptionValue, type UiSchema } from './json-schema';
import { expectedFormatOf, type ExpectedFormat } from './expected-format';
import { ONE_TIME_CODE_PATTERN } from './one-time-code';
import { binLengthOf, phoneMaskOf, readSiteFormSettings, type SiteFormSettings } from './site-form-settings';

/**
 * The translator (DESIGN "How data flows"): site configuration + locale + form name -> JSON Schema
 * and uiSchema. Pure and deterministic; the browser renders the result with RJSF and the gateway
 * validates payloads with the very same schema. Labels and messages are content keys in the
 * uiSchema (`labelKey`), never texts, so a schema is the same for every visitor of a site.
 */

/** Where a field appears, and in which order a person fills it. */
interface FieldSpec {
  key: string;
  schema: (settings: SiteFormSettings, locale: string) => JsonSchema;
  ui: (settings: SiteFormSettings, locale: string) => UiSchema;
}

const ADDRESS_PARTS = ['street', 'number', 'additionalInformation', 'neighborhood', 'city', 'state', 'zipcode'] as const;
/** SPEC §3 Address; street, number, city, state and zipcode make an address, the others help it. */
const ADDRESS_PARTS_REQUIRED_BY_DEFAULT: ReadonlySet<string> = new Set(['street', 'number', 'city', 'state', 'zipcode']);
const TITLES = ['mr', 'mrs', 'ms', 'mx', 'dr'];
const GENDERS = ['female', 'male', 'non_binary', 'undisclosed'];
const BUSINESS_TYPES = ['individual', 'sole_proprietor', 'partnership', 'corporation', 'non_profit'];
const OFFER_CATEGORY_ID = '^[a-z0-9][a-z0-9_-]{0,63}$';

const text = (maxLength = DEFAULT_MAX_LENGTH): JsonSchema => ({ type: 'string', maxLength });
const withRule = (schema: JsonSchema, name: RuleName, options?: Readonly<Record<string, RuleOptionValue>>): JsonSchema => ({
  ...schema,
  'x-rule': options ? { name, options } : { name },
});
const ui = (labelKey: string, extra: UiSchema = {}): UiSchema => ({ 'ui:options': { labelKey, ...extra } });

/**
 * A number-like field (phone, national id, postal code, bin, passcode) keeps its characters left to
 * right inside a right-to-left page (SPEC §2 "Page language follows the locale"; ADR 0013):
 * `5512 3456` must not read `3456 5512` in Arabic.
 */
const LEFT_TO_RIGHT = { leftToRight: true } as const;

/**
 * A phone, national id or postal code: formatted by the site's mask when it has one, its expected
 * format as a hint and in its error (expected-format.ts), its letters upper-cased as typed when the
 * site asks (normalise-form-data.ts).
 */
function formattedUi(
  labelKey: string,
  mask: string | null,
  autocomplete: string,
  inputMode: string,
  expected: ExpectedFormat | null,
  uppercase = false,
): UiSchema {
  const options = {
    labelKey,
    ...(mask ? { mask } : {}),
    inputMode,
    ...LEFT_TO_RIGHT,
    ...(expected ? { expectedFormat: expected } : {}),
    ...(uppercase ? { uppercase } : {}),
  };
  return mask
    ? { 'ui:widget': 'MaskedTextWidget', 'ui:autocomplete': autocomplete, 'ui:options': options }
    : { 'ui:autocomplete': autocomplete, 'ui:options': options };
}

/** The rule option of a field whose letters are upper-cased: set only when the site asks, so other schemas keep their shape. */
const upperCaseOption = (uppercase: boolean): Readonly<Record<string, RuleOptionValue>> => (uppercase ? { uppercase } : {});

/** SPEC §5/§8: a bin has its own error text ("a bin of set digits"), named per field as `errorTextKeys`. */
function binUi(labelKey: string, binLength: number): UiSchema {
  return {
    'ui:widget': 'MaskedTextWidget',
    'ui:autocomplete': 'off',
    ...ui(labelKey, { mask: '0'.repeat(binLength), inputMode: 'numeric', errorTextKeys: { invalid: 'binError' }, ...LEFT_TO_RIGHT }),
  };
}

/** Attribute fields of SPEC §3 in the order a person fills them. */
const PROFILE_FIELDS: readonly FieldSpec[] = [
  {
    key: 'title',
    schema: () => ({ type: 'string', enum: TITLES }),
    ui: () => ({ 'ui:widget': 'select', 'ui:autocomplete': 'honorific-prefix', ...ui('label.title', { enumKeyPrefix: 'title.' }) }),
  },
  { key: 'first_name', schema: () => withRule(text(), 'name'), ui: () => ({ 'ui:autocomplete': 'given-name', ...ui('label.first_name') }) },
  { key: 'last_name', schema: () => withRule(text(), 'name'), ui: () => ({ 'ui:autocomplete': 'family-name', ...ui('label.last_name') }) },
  {
    key: 'email',
    schema: () => withRule(text(254), 'email'),
    ui: () => ({ 'ui:widget': 'email', 'ui:autocomplete': 'email', ...ui('label.email', { inputMode: 'email' }) }),
  },
  {
    key: 'password',
    schema: () => withRule(text(128), 'password'),
    ui: () => ({ 'ui:widget': 'PasswordWidget', 'ui:autocomplete': 'new-password', ...ui('label.password', { showRules: true }) }),
  },
  {
    key: 'confirm_password',
    schema: () => withRule(text(128), 'confirmPassword', { matchField: 'password' }),
    ui: () => ({ 'ui:widget': 'PasswordWidget', 'ui:autocomplete': 'new-password', ...ui('label.confirm_password') }),
  },
  {
    key: 'dob',
    schema: (settings) => withRule(text(10), 'dob', { dateFormat: settings.dateFormat, minAge: settings.minAge }),
    ui: (settings) => ({ 'ui:widget': 'DobWidget', 'ui:autocomplete': 'bday', ...ui('label.dob', { dateFormat: settings.dateFormat }) }),
  },
  {
    key: 'gender',
    schema: () => ({ type: 'string', enum: GENDERS }),
    ui: () => ({ 'ui:widget': 'select', 'ui:autocomplete': 'sex', ...ui('label.gender', { enumKeyPrefix: 'gender.' }) }),
  },
  {
    key: 'phone',
    schema: (settings, locale) => withRule(text(32), 'phone', { mask: phoneMaskOf(settings, locale), regexp: settings.phoneRegexp, locale }),
    ui: (settings, locale) =>
      formattedUi(
        'label.phone',
        phoneMaskOf(settings, locale),
        'tel',
        'tel',
        // SPEC §5: pt_br phones are mobiles, a rule the mask alone does not tell.
        expectedFormatOf(
          { mask: phoneMaskOf(settings, locale), regexp: settings.phoneRegexp, example: settings.phoneExample },
          settings.phoneRegexp !== null || locale === 'pt_br',
        ),
      ),
  },
  {
    key: 'nationalId',
    schema: (settings) =>
      withRule(text(32), 'nationalId', {
        nationalIdType: settings.nationalIdType,
        mask: settings.nationalIdMask,
        regexp: settings.nationalIdRegexp,
        ...upperCaseOption(settings.nationalIdUppercase),
      }),
    ui: (settings) =>
      formattedUi(
        settings.nationalIdType === 'other' ? 'label.nationalId' : `label.nationalId.${settings.nationalIdType}`,
        settings.nationalIdMask,
        'off',
        settings.nationalIdType === 'other' ? 'text' : 'numeric',
        // SPEC §5: cpf and ssn have check rules beyond their masks.
        expectedFormatOf(
          { mask: settings.nationalIdMask, regexp: settings.nationalIdRegexp, example: settings.nationalIdExample },
          settings.nationalIdType !== 'other' || settings.nationalIdRegexp !== null,
        ),
        settings.nationalIdUppercase,
      ),
  },
  {
    key: 'ninedigitbin',
    // Stryker disable next-line StringLiteral: binLengthOf reads any attribute but 'bin' as ninedigitbin
    schema: (settings) => withRule(text(19), 'bin', { binLength: binLengthOf(settings, 'ninedigitbin') }),
    // "First 9 digits" only when it asks nine; six_digit_verification or another bin_length gets the label without a count.
    ui: (settings) => {
      // Stryker disable next-line StringLiteral: binLengthOf reads any attribute but 'bin' as ninedigitbin
      const binLength = binLengthOf(settings, 'ninedigitbin');
      return binUi(binLength === 9 ? 'label.ninedigitbin' : 'label.bin', binLength);
    },
  },
  {
    key: 'bin',
    schema: (settings) => withRule(text(19), 'bin', { binLength: binLengthOf(settings, 'bin') }),
    ui: (settings) => binUi('label.bin', binLengthOf(settings, 'bin')),
  },
  { key: 'bank', schema: () => withRule(text(), 'name'), ui: () => ui('label.bank') },
  {
    key: 'business_type',
    schema: () => ({ type: 'string', enum: BUSINESS_TYPES }),
    ui: () => ({ 'ui:widget': 'select', ...ui('label.business_type', { enumKeyPrefix: 'business_type.' }) }),
  },
  // Stryker disable next-line ObjectLiteral,StringLiteral: never called, addressSchema builds the block
  { key: 'address', schema: () => ({ type: 'object' }), ui: () => ({}) },
  {
    key: 'country',
    schema: () => ({ type: 'string', pattern: '^[A-Z]{2}$' }),
    ui: () => ({ 'ui:widget': 'CountryWidget', 'ui:autocomplete': 'country', ...ui('label.country') }),
  },
  { key: 'state', schema: () => withRule(text(), 'addressPart'), ui: () => ({ 'ui:autocomplete': 'address-level1', ...ui('label.state') }) },
  { key: 'region', schema: () => withRule(text(), 'addressPart'), ui: () => ui('label.region') },
  {
    key: 'locale',
    schema: (_settings, locale) => ({ type: 'string', pattern: '^[a-z]{2}_[a-z]{2}$', default: locale }),
    ui: () => ({ 'ui:widget': 'hidden' }),
  },
  // Stryker disable next-line ObjectLiteral,StringLiteral: never called, marketingOptInsSchema builds the block
  { key: 'marketing_opt_ins', schema: () => ({ type: 'object' }), ui: () => ({}) },
  { key: 'email_optin', schema: () => ({ type: 'boolean', default: false }), ui: () => ({ 'ui:widget': 'checkbox', ...ui('label.email_optin') }) },
  {
    key: 'offers_preference',
    schema: () => ({ type: 'array', items: { type: 'string', pattern: OFFER_CATEGORY_ID }, uniqueItems: true, maxItems: 50 }),
    ui: () => ({ 'ui:widget': 'OfferCategoriesWidget', ...ui('label.offers_preference') }),
  },
];

/** SPEC §5 "Profile form omits password, confirm password, email, national id and privacy policy". */
const OMITTED_FROM_PROFILE: ReadonlySet<string> = new Set(['password', 'confirm_password', 'email', 'nationalId', 'pp']);

function addressSchema(settings: SiteFormSettings, form: FormName): { schema: JsonSchema; ui: UiSchema } | null {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const order: string[] = [];
  const uiParts: UiSchema = {};
  for (const part of ADDRESS_PARTS) {
    const explicit = settings.levels[`address.${part}`];
    // Stryker disable next-line StringLiteral: a text that names no level reads as Optional too (shown, not required)
    const level = explicit ?? (ADDRESS_PARTS_REQUIRED_BY_DEFAULT.has(part) ? settings.levels.address : 'Optional');
    if (!isShown(level, form)) continue;
    // SPEC §3 names `state` both as a site attribute and as an address part: a site asking both showed two "State"
    // fields, one in the address and one below its ZIP code. The site attribute is the one kept: it is what the site's
    // holders already have stored, at the level the site gave it (northbank's is Mandatory, its address's Optional).
    if (part === 'state' && isShown(settings.levels.state, form)) continue;
    order.push(part);
    if (level === 'Mandatory') required.push(part);
    if (part === 'zipcode') {
      properties[part] = withRule(text(16), 'postalCode', {
        mask: settings.postalCodeMask,
        regexp: settings.postalCodeRegexp,
        ...upperCaseOption(settings.postalCodeUppercase),
      });
      uiParts[part] = formattedUi(
        'label.address.zipcode',
        settings.postalCodeMask,
        'postal-code',
        settings.postalCodeMask === null || /[A*]/.test(settings.postalCodeMask) ? 'text' : 'numeric',
        expectedFormatOf(
          { mask: settings.postalCodeMask, regexp: settings.postalCodeRegexp, example: settings.postalCodeExample },
          settings.postalCodeRegexp !== null,
        ),
        settings.postalCodeUppercase,
      );
    } else {
      properties[part] = withRule(text(), 'addressPart');
      // Stryker disable next-line StringLiteral: every part but zipcode (the branch above) has its token, so 'off' is never read
      uiParts[part] = { 'ui:autocomplete': ADDRESS_AUTOCOMPLETE[part] ?? 'off', ...ui(`label.address.${part}`) };
    }
  }
  if (order.length === 0) return null;
  return {
    schema: { type: 'object', properties, required, additionalProperties: false },
    ui: { 'ui:order': order, 'ui:options': { labelKey: 'label.address' }, ...uiParts },
  };
}

const ADDRESS_AUTOCOMPLETE: Readonly<Record<string, string>> = {
  street: 'address-line1',
  number: 'address-line2',
  additionalInformation: 'address-line3',
  neighborhood: 'address-level3',
  city: 'address-level2',
  state: 'address-level1',
};

function marketingOptInsSchema(settings: SiteFormSettings): { schema: JsonSchema; ui: UiSchema } | null {
  if (settings.marketingOptIns.length === 0) return null;
  const properties: Record<string, JsonSchema> = {};
  for (const key of settings.marketingOptIns) properties[key] = { type: 'boolean', default: false };
  return {
    schema: { type: 'object', properties, additionalProperties: false },
    ui: {
      'ui:field': 'OptInListField',
      'ui:order': [...settings.marketingOptIns],
      'ui:options': { labelKey: 'optins.title', allOfTheAbove: settings.allOfTheAbove },
    },
  };
}

/** SPEC §3: ProfileOptional is left out of registration; None is never shown. */
function isShown(level: string | undefined, form: FormName): boolean {
  if (level === undefined || level === 'None') return false;
  return !(level === 'ProfileOptional' && form === 'registration');
}

function isRequired(level: string | undefined, form: FormName): boolean {
  return level === 'Mandatory' && form !== 'profile-view';
}

function profileFormSchema(settings: SiteFormSettings, locale: string, form: 'registration' | 'edit-profile' | 'profile-view'): FormSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const order: string[] = [];
  const uiSchema: UiSchema = {};
  const omitted = form === 'edit-profile' ? OMITTED_FROM_PROFILE : form === 'profile-view' ? PROFILE_VIEW_OMITTED : new Set<string>();

  for (const field of PROFILE_FIELDS) {
    const level = settings.levels[field.key];
    if (omitted.has(field.key) || !isShown(level, form)) continue;
    if (field.key === 'address' || field.key === 'marketing_opt_ins') {
      const block = field.key === 'address' ? addressSchema(settings, form) : marketingOptInsSchema(settings);
      if (!block) continue;
      properties[field.key] = block.schema;
      uiSchema[field.key] = block.ui;
    } else {
      properties[field.key] = field.schema(settings, locale);
      uiSchema[field.key] = field.ui(settings, locale);
    }
    order.push(field.key);
    if (isRequired(level, form)) required.push(field.key);
  }

  if (form === 'registration' && settings.privacyPolicyDisplay !== null) {
    // SPEC §5: pp is mandatory when privacy_policy_display is A; B offers it; C shows the policy only.
    order.push('pp');
    const policyLink = settings.privacyPolicyUrl === null ? {} : { policyUrl: settings.privacyPolicyUrl };
    // Only A's box must be ticked; B and C are unticked, the display tells the widget the rest.
    properties.pp = settings.privacyPolicyDisplay === 'A' ? { type: 'boolean', const: true } : { type: 'boolean', default: false };
    uiSchema.pp = { 'ui:widget': 'PrivacyPolicyWidget', 'ui:options': { labelKey: 'label.pp', display: settings.privacyPolicyDisplay, ...policyLink } };
    if (settings.privacyPolicyDisplay === 'A') required.push('pp');
  }

  if (form === 'profile-view') {
    for (const key of order) properties[key] = { ...properties[key], readOnly: true };
  }
  uiSchema['ui:order'] = order;
  if (form === 'profile-view') uiSchema['ui:readonly'] = true;
  return { schema: { type: 'object', properties, required, additionalProperties: false }, uiSchema };
}

/** The read-only view shows what edit-profile edits plus e-mail and the (masked) national id. */
const PROFILE_VIEW_OMITTED: ReadonlySet<string> = new Set(['password', 'confirm_password', 'pp']);

function simpleForm(fields: ReadonlyArray<[key: string, schema: JsonSchema, ui: UiSchema, required: boolean]>): FormSchema {
  const properties: Record<string, JsonSchema> = {};
  const uiSchema: UiSchema = { 'ui:order': fields.map(([key]) => key) };
  const required: string[] = [];
  for (const [key, schema, fieldUi, isFieldRequired] of fields) {
    properties[key] = schema;
    uiSchema[key] = fieldUi;
    if (isFieldRequired) required.push(key);
  }
  return { schema: { type: 'object', properties, required, additionalProperties: false }, uiSchema };
}

const passwordField = (key: string, labelKey: string, autocomplete: string, showRules: boolean): [string, JsonSchema, UiSchema, boolean] => [
  key,
  withRule(text(128), 'password'),
  { 'ui:widget': 'PasswordWidget', 'ui:autocomplete': autocomplete, ...ui(labelKey, showRules ? { showRules: true } : {}) },
  true,
];
const confirmField: [string, JsonSchema, UiSchema, boolean] = [
  'confirm_password',
  withRule(text(128), 'confirmPassword', { matchField: 'password' }),
  { 'ui:widget': 'PasswordWidget', 'ui:autocomplete': 'new-password', ...ui('label.confirm_password') },
  true,
];
const codeField = (key: string, labelKey: string): [string, JsonSchema, UiSchema, boolean] => [
  key,
  { type: 'string', pattern: ONE_TIME_CODE_PATTERN, maxLength: 6 },
  // A wrong shape says what a code is (form codeFormat: "Enter the 6 digits of your code"), not "check this field".
  { 'ui:autocomplete': 'one-time-code', ...ui(labelKey, { inputMode: 'numeric', errorTextKeys: { invalid: 'codeFormat' }, ...LEFT_TO_RIGHT }) },
  true,
];
const emailField = (key: string, autocomplete: string): [string, JsonSchema, UiSchema, boolean] => [
  key,
  withRule(text(254), 'email'),
  { 'ui:widget': 'email', 'ui:autocomplete': autocomplete, ...ui('label.email', { inputMode: 'email' }) },
  true,
];

export function buildFormSchema(site: SiteConfig, locale: string, form: FormName): FormSchema {
  const settings = readSiteFormSettings(site);
  switch (form) {
    case 'registration':
    case 'edit-profile':
    case 'profile-view':
      return profileFormSchema(settings, locale, form);
    case 'login':
      // SPEC §3 login payload: username and password (a signed-in password is never re-checked for rules here).
      return simpleForm([
        emailField('username', 'username'),
        ['password', text(128), { 'ui:widget': 'password', 'ui:autocomplete': 'current-password', ...ui('label.password') }, true],
      ]);
    case 'change-password':
      return simpleForm([
        ['currentPassword', text(128), { 'ui:widget': 'password', 'ui:autocomplete': 'current-password', ...ui('label.current_password') }, true],
        passwordField('password', 'label.new_password', 'new-password', true),
        confirmField,
      ]);
    case 'reset-password':
      return simpleForm([codeField('passcode', 'label.passcode'), passwordField('password', 'label.new_password', 'new-password', true), confirmField]);
    case 'recovery':
      return simpleForm([emailField('email', 'email')]);
    case 'otp':
      return simpleForm([
        codeField('otp', 'label.otp'),
        ['trust_device', { type: 'boolean', default: false }, { 'ui:widget': 'checkbox', ...ui('label.trust_device') }, false],
      ]);
    case 'passcode':
      return simpleForm([codeField('passcode', 'label.passcode')]);
  }
}
