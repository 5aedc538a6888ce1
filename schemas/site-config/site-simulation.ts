/**
 * `sites:check` simulates a site (docs/decisions/0001-site-fixture-format.md "Simulation"): for each
 * locale of `site_locales` it builds the forms a card holder fills (registration, edit-profile, the
 * card forms), makes a value for every field from the field's own mask, regexp and rules
 * (../forms/generated-values.ts), and runs each value through the validators the browser and the
 * gateway run (`validateFormData`, `validateField`), as the masked widget stores it and as the field
 * shows it. What no card holder could get past is a mistake; a text the page would show in the wrong
 * language is a warning. Pure: the caller gives the day and the content files.
 */
import { buildFormSchema } from '../forms/build-form-schema';
import { GENERATED_RULES, generateFieldValue, GENERATION_ATTEMPTS, whyRefused, type RefusedValue } from '../forms/generated-values';
import type { ExpectedFormat } from '../forms/expected-format';
import type { JsonSchema, UiSchema } from '../forms/json-schema';
import { validateFormData } from '../forms/validate-form';
import { contentFallbackChain, localeLineage } from '../locales/content-fallback';
import { DEFAULT_LOCALE } from '../locales/locale-table';
import { cardConfigOf } from '../cards/card-config';
import { formatJsonPath, type FixtureMistake } from './fixture-check';
import { applyMask, unmask } from './mask';
import { siteLocalesOf } from './site-locales';
import { featureConfigOf, type FeatureName, type SiteConfig } from './types';
import { upperCaseLetters } from '../forms/normalise-form-data';
import { EARLIEST_BIRTH_YEAR, validateField, type CalendarDay, type RuleName } from '../validators';

export interface SimulationInputs {
  /** The day dates of birth are judged on: the caller's clock (schemas/ never reads one). */
  today: CalendarDay;
  /** Content texts by locale file (`fixtures/content/{locale}.json`): group -> key -> text. */
  content: ReadonlyMap<string, Readonly<Record<string, Readonly<Record<string, string>>>>>;
}

export interface SimulationResult {
  mistakes: FixtureMistake[];
  warnings: FixtureMistake[];
}

/** The forms a card holder types into; profile-view is read-only and the others ask no site setting. */
const FILLED_FORMS = ['registration', 'edit-profile'] as const;

/** Values for the fields whose rule has no site setting (SPEC §5): each passes its rule on every site. */
const PLAIN_VALUES: Readonly<Partial<Record<RuleName, string>>> = {
  name: 'Alex',
  addressPart: 'Harbour Street',
  email: 'sites-check@example.com',
  password: 'Sunny-Day-42',
  confirmPassword: 'Sunny-Day-42',
  text: 'Harbour',
};
/** The earliest birth date SPEC §5 accepts: old enough for any `dob_min_age` the format allows (at most 120). */
const SIMULATED_DOB = `${EARLIEST_BIRTH_YEAR}-01-01`;
/** SPEC §5 card number: 16 digits starting with 4 that pass Luhn, as the card input shows them. */
const SIMULATED_CARD = '4111 1111 1111 1111';

/** Where a field's site settings live in `user_enrollment`, the one its regexp or mask is read from first. */
const SETTING_KEYS: Readonly<Record<string, readonly string[]>> = {
  phone: ['phone_regexp', 'phone_mask'],
  nationalId: ['national_id_regexp', 'national_id_mask', 'national_id_type'],
  zipcode: ['postal_code_regexp', 'postal_code_mask'],
  bin: ['bin_length', 'six_digit_verification'],
  ninedigitbin: ['bin_length', 'six_digit_verification'],
};
const EXAMPLE_KEYS: Readonly<Record<string, string>> = { phone: 'phone_example', nationalId: 'national_id_example', zipcode: 'postal_code_example' };

type Segment = string | number;

export function simulateSite(site: SiteConfig, file: string, inputs: SimulationInputs): SimulationResult {
  const mistakes = new Map<string, FixtureMistake>();
  const warnings = new Map<string, FixtureMistake>();
  const add = (into: Map<string, FixtureMistake>, at: readonly Segment[], expected: string, actual?: string): void => {
    const path = formatJsonPath(at);
    // The same setting fails the same way in every form and locale: one line for it.
    const key = `${path}\u0000${actual ?? expected}`;
    if (!into.has(key)) into.set(key, { file, path, expected, ...(actual === undefined ? {} : { actual }) });
  };

  for (const locale of siteLocalesOf(site)) {
    const shownKeys = new Set<string>();
    for (const form of FILLED_FORMS) {
      const { schema, uiSchema } = buildFormSchema(site, locale, form);
      collectTextKeys(schema, uiSchema, shownKeys);
      simulateForm(site, locale, form, schema, inputs, (at, expected, actual) => add(mistakes, at, expected, actual));
      checkExpectedFormats(site, locale, form, schema, uiSchema, (at, expected, actual) => add(warnings, at, expected, actual));
    }
    checkTexts(site, locale, shownKeys, inputs, (at, expected, actual) => add(warnings, at, expected, actual));
  }
  simulateCardForm(site, (at, expected, actual) => add(mistakes, at, expected, actual));
  return { mistakes: [...mistakes.values()], warnings: [...warnings.values()] };
}

type Report = (at: readonly Segment[], expected: string, actual?: string) => void;

function featurePath(site: SiteConfig, name: FeatureName, key?: string): Segment[] | null {
  const index = site.siteFeatureConfigurations.findIndex((feature) => feature.name === name);
  if (index < 0) return null;
  return key === undefined ? ['siteFeatureConfigurations', index, 'featureConfig'] : ['siteFeatureConfigurations', index, 'featureConfig', key];
}

/** The setting a field's failure points at: its regexp, else its mask…, else its requirement level. */
function settingPath(site: SiteConfig, field: string): Segment[] {
  const enrollment = featureConfigOf(site, 'user_enrollment');
  const setting = (SETTING_KEYS[field] ?? []).find((key) => enrollment[key] !== undefined);
  if (setting !== undefined) return featurePath(site, 'user_enrollment', setting) ?? [];
  for (const feature of ['user_site_profile', 'user_global_profile'] as const) {
    for (const key of [field === 'zipcode' ? 'address.zipcode' : field, field === 'zipcode' ? 'address' : field]) {
      if (featureConfigOf(site, feature)[key] !== undefined) return featurePath(site, feature, key) ?? [];
    }
  }
  return [];
}

const describeRefused = (refused: readonly RefusedValue[]): string =>
  refused.map(({ value, drawnFrom, why }) => `${JSON.stringify(value)} (drawn from the ${drawnFrom}): ${why}`).join('; ');

/** Fills one form the way a card holder would and reports every field neither the browser nor the gateway would accept. */
function simulateForm(site: SiteConfig, locale: string, form: string, schema: JsonSchema, inputs: SimulationInputs, report: Report): void {
  const stored: Record<string, unknown> = {};
  const shown: Record<string, unknown> = {};
  const reported = new Set<string>();
  fillObject(schema, '', stored, shown, (fieldPath, field, refused) => {
    reported.add(fieldPath);
    const key = fieldPath.split('.').pop() ?? fieldPath;
    const rule = field['x-rule'];
    report(
      settingPath(site, key),
      `settings the ${rule?.name ?? 'field'} field ${fieldPath} can be filled under (${form}, ${locale}; rule ${JSON.stringify(rule?.options ?? {})})`,
      `none of ${GENERATION_ATTEMPTS} values drawn from its mask and regexp passes the validators the browser and the gateway run: ${describeRefused(refused)}`,
    );
  });
  // The site's own examples, typed into the field: the widget stores the bare slot characters.
  const enrollment = featureConfigOf(site, 'user_enrollment');
  forEachField(schema, '', (fieldPath, field) => {
    const key = fieldPath.split('.').pop() ?? fieldPath;
    const exampleKey = EXAMPLE_KEYS[key];
    const example = exampleKey === undefined ? undefined : enrollment[exampleKey];
    const rule = field['x-rule'];
    if (example === undefined || !rule) return;
    const options = rule.options ?? {};
    const mask = typeof options.mask === 'string' && options.mask !== '' ? options.mask : null;
    const cased = options.uppercase === true ? upperCaseLetters(example) : example;
    const typedIn = mask ? unmask(mask, cased) : cased;
    for (const value of mask ? [typedIn, applyMask(mask, typedIn)] : [typedIn]) {
      const error = validateField(value, { rule: rule.name, options, required: true });
      if (error === null) continue;
      report(
        featurePath(site, 'user_enrollment', exampleKey) ?? [],
        `an example the site's own ${fieldPath} field accepts once typed into it (${form}, ${locale})`,
        `${JSON.stringify(value)}: ${whyRefused(rule.name, options, value, error)}`,
      );
      break;
    }
  });
  for (const [data, as] of [
    [stored, 'as the widget stores it'],
    [shown, 'as the field shows it'],
  ] as const) {
    for (const [fieldPath, error] of Object.entries(validateFormData(schema, data, { today: inputs.today }))) {
      if (reported.has(fieldPath)) continue;
      reported.add(fieldPath);
      const key = fieldPath.split('.').pop() ?? fieldPath;
      report(
        settingPath(site, key),
        `a ${fieldPath} field a card holder can fill (${form}, ${locale})`,
        `${describeValue(fieldAt(schema, fieldPath), valueAt(data, fieldPath))} ${as} is refused with ${error.key}`,
      );
    }
  }
}

/**
 * SPEC §5 "invalid message otherwise": a phone, national id or postal code refused for its shape says what it
 * expects (../forms/expected-format.ts). Where the site's mask or digits cannot tell it (a mask with a rule beyond
 * it, as a ZIP code's `^[0-9]{5}$` or a cpf's check digits; a regexp the form cannot read), only the site's own
 * example can; without one a holder who typed "1234" reads only "Please check this field." A warning: the field works,
 * its error just says less than it could.
 */
function checkExpectedFormats(site: SiteConfig, locale: string, form: string, schema: JsonSchema, uiSchema: UiSchema, report: Report): void {
  forEachField(schema, '', (fieldPath) => {
    const exampleKey = EXAMPLE_KEYS[fieldPath.split('.').pop() ?? fieldPath];
    if (exampleKey === undefined) return;
    const options = fieldPath.split('.').reduce<UiSchema | undefined>((node, key) => node?.[key] as UiSchema | undefined, uiSchema)?.['ui:options'] as
      { expectedFormat?: ExpectedFormat } | undefined;
    // A field without a mask or regexp of the site's own has nothing the site could give an example of.
    const expected = options?.expectedFormat;
    if (expected === undefined || (expected.errorKey !== undefined && expected.errorKey !== 'expected.siteFormat')) return;
    report(
      featurePath(site, 'user_enrollment', exampleKey) ?? [],
      `an example for the ${fieldPath} field (${form}, ${locale}): its mask and regexp alone cannot tell a card holder what a refused value should look like`,
      'no example: a refused value would only say "Please check this field."',
    );
  });
}

/**
 * The values the simulation types into a form, as the widgets store them (bare slot characters): what the site studio's
 * "Type the simulated values" button fills its preview with (docs/decisions/0027-site-studio.md). A field no value can
 * fill is left empty; the simulation's mistake names it.
 */
export function simulatedFormData(schema: JsonSchema): Record<string, unknown> {
  const stored: Record<string, unknown> = {};
  fillObject(schema, '', stored, {}, () => undefined);
  return stored;
}

type Refusal = (fieldPath: string, field: JsonSchema, refused: readonly RefusedValue[]) => void;

/** Puts a value in every field a person fills: the stored form (bare slot characters) and the shown form (masked). */
function fillObject(schema: JsonSchema, prefix: string, stored: Record<string, unknown>, shown: Record<string, unknown>, refusal: Refusal): void {
  const required = new Set(schema.required ?? []);
  for (const [key, field] of Object.entries(schema.properties ?? {})) {
    const fieldPath = prefix === '' ? key : `${prefix}.${key}`;
    if (field.type === 'object') {
      const storedInner: Record<string, unknown> = {};
      const shownInner: Record<string, unknown> = {};
      fillObject(field, fieldPath, storedInner, shownInner, refusal);
      stored[key] = storedInner;
      shown[key] = shownInner;
      continue;
    }
    const rule = field['x-rule'];
    if (rule && GENERATED_RULES.has(rule.name)) {
      const generated = generateFieldValue(field, fieldPath);
      if (!generated.ok) refusal(fieldPath, field, generated.refused);
      else {
        stored[key] = generated.value.stored;
        shown[key] = generated.value.shown;
      }
      continue;
    }
    const value = plainValue(field, required.has(key));
    if (value !== undefined) {
      stored[key] = value;
      shown[key] = value;
    }
  }
}

function plainValue(field: JsonSchema, required: boolean): unknown {
  const rule = field['x-rule'];
  if (rule?.name === 'dob') return SIMULATED_DOB;
  if (rule) return PLAIN_VALUES[rule.name];
  if (field.const !== undefined) return field.const;
  if (field.default !== undefined) return field.default;
  if (field.enum) return field.enum[0];
  if (field.type === 'boolean') return false;
  // The country select offers ISO 3166 alpha-2 codes (its pattern ^[A-Z]{2}$); the locale field defaults to the page's.
  if (field.pattern === '^[A-Z]{2}$') return 'US';
  if (field.type === 'array') return required ? ['travel'] : [];
  return undefined;
}

function forEachField(schema: JsonSchema, prefix: string, visit: (fieldPath: string, field: JsonSchema) => void): void {
  for (const [key, field] of Object.entries(schema.properties ?? {})) {
    const fieldPath = prefix === '' ? key : `${prefix}.${key}`;
    if (field.type === 'object') forEachField(field, fieldPath, visit);
    else visit(fieldPath, field);
  }
}

/** Passwords are named, never printed (secrets never reach an output line, ADR 0017), even the simulated one. */
function describeValue(field: JsonSchema | undefined, value: unknown): string {
  const rule = field?.['x-rule']?.name;
  return rule === 'password' || rule === 'confirmPassword' ? 'the simulated password' : JSON.stringify(value);
}

function fieldAt(schema: JsonSchema, fieldPath: string): JsonSchema | undefined {
  return fieldPath.split('.').reduce<JsonSchema | undefined>((node, key) => node?.properties?.[key], schema);
}

function valueAt(data: Record<string, unknown>, fieldPath: string): unknown {
  return fieldPath
    .split('.')
    .reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined), data);
}

/** SPEC §2 card forms: the card number as its input shows it, capped at `pan_capture.maxLength`, in the list and the standalone form. */
function simulateCardForm(site: SiteConfig, report: Report): void {
  const path = featurePath(site, 'pan_capture', 'maxLength');
  if (path === null) return;
  const card = cardConfigOf(featureConfigOf(site, 'pan_capture'));
  const typed = SIMULATED_CARD.slice(0, card.maxLength);
  for (const standalone of [false, true]) {
    const error = validateField(typed, { rule: 'cardNumber', options: { maxLength: card.maxLength, standalone }, required: true });
    if (error === null) continue;
    report(
      path,
      `a card input long enough for a card number shown as ${JSON.stringify(SIMULATED_CARD)}`,
      `${JSON.stringify(typed)} fits in ${card.maxLength} characters and is refused with ${error.key}`,
    );
    return;
  }
}

/** The content keys (group `form`) a form's labels, options and errors show. */
function collectTextKeys(schema: JsonSchema, uiSchema: UiSchema, keys: Set<string>): void {
  for (const [key, field] of Object.entries(schema.properties ?? {})) {
    const ui = (uiSchema[key] ?? {}) as UiSchema;
    const options = (ui['ui:options'] ?? {}) as Record<string, unknown>;
    if (typeof options.labelKey === 'string') keys.add(options.labelKey);
    if (typeof options.enumKeyPrefix === 'string') for (const value of field.enum ?? []) keys.add(`${options.enumKeyPrefix}${value}`);
    if (typeof options.errorTextKeys === 'object' && options.errorTextKeys !== null) {
      for (const text of Object.values(options.errorTextKeys)) if (typeof text === 'string') keys.add(text);
    }
    if (field.type === 'object') collectTextKeys(field, ui, keys);
  }
}

type ContentBundle = Readonly<Record<string, Readonly<Record<string, string>>>>;

/**
 * Whether a content file has the text a form looks up by `key` (widgets/form-engine/form-texts.ts): keys of
 * the `form` group as they are, others behind their group's name (`optins.title`); a counted text by its
 * `other` form (ADR 0013 "Counted texts").
 */
function hasFormText(bundle: ContentBundle | undefined, key: string): boolean {
  if (bundle === undefined) return false;
  const dot = key.indexOf('.');
  const places: Array<[group: string, text: string]> = [['form', key], ...(dot > 0 ? [[key.slice(0, dot), key.slice(dot + 1)] as [string, string]] : [])];
  return places.some(([group, text]) => {
    const texts = bundle[group];
    return texts !== undefined && (Object.hasOwn(texts, text) || Object.hasOwn(texts, `${text}.other`));
  });
}

/**
 * Warnings (ADR 0013 "Content fallback by language"): a form text neither the locale nor any file of
 * its fallback chain has (the page shows the bare key), and a locale of another language than en_us
 * that reads most of its form texts from en_us (the page is mostly English).
 */
function checkTexts(site: SiteConfig, locale: string, keys: ReadonlySet<string>, inputs: SimulationInputs, report: Report): void {
  const at = featurePath(site, 'site_locales', 'locales') ?? [];
  const chain = contentFallbackChain(locale, inputs.content.keys());
  const sameLanguageAsDefault = localeLineage(DEFAULT_LOCALE).some((step) => localeLineage(locale).includes(step));
  let fromDefault = 0;
  for (const key of keys) {
    const answeredBy = chain.find((file) => hasFormText(inputs.content.get(file), key));
    if (answeredBy === undefined) {
      report(at, `a text for every label the ${locale} forms show (content group form, files ${chain.join(', ')})`, `no file has ${JSON.stringify(key)}`);
    } else if (answeredBy === DEFAULT_LOCALE && locale !== DEFAULT_LOCALE) fromDefault += 1;
  }
  if (!sameLanguageAsDefault && fromDefault * 2 > keys.size) {
    report(
      at,
      `a content file for ${locale} or its language (fixtures/content), so its pages are not mostly ${DEFAULT_LOCALE}`,
      `${fromDefault} of the ${keys.size} form texts of ${locale} come from ${DEFAULT_LOCALE} (fallback chain ${chain.join(', ')})`,
    );
  }
}
