/**
 * The fixture lint (docs/decisions/0001-site-fixture-format.md, "Consequences"): a site fixture is
 * checked against `siteFixtureSchema` plus what JSON Schema cannot say (regexps compile, masks are
 * readable, the file name equals `siteId`, each feature appears once) and what the portal could not
 * run (fixture-rules.ts: ADR 0001 "Rules beyond the format"). Every mistake names the file,
 * the JSONPath inside it and what was expected, so an author can fix it without reading code.
 *
 * Runs in Node (the `sites:check` CLI and the gateway's start-up check), so ajv's generated code is fine.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { digitCountOf } from '../forms/expected-format';
import { upperCaseLetters } from '../forms/normalise-form-data';
import { nationalIdMask, postalCodeMask, validateNationalId, validatePhone, validatePostalCode, type FieldError } from '../validators';
import { LOCALE_LIST_PATTERN, MASK_DESCRIPTION, MASK_SETTINGS, REGEXP_SETTINGS, siteFixtureSchema, type JsonSchemaNode } from './fixture-format';
import { isPseudoLocale } from '../locales/pseudo-locale';
import { isSupportedLocale, LOCALES } from '../locales/locale-table';
import { maskSlotCount, parseMask } from './mask';
import { BRAND_SETTINGS, failingBrandContrast, isLogoPath } from './site-brand';
import { normaliseHexColour } from './colour-contrast';
import { FEATURE_NAMES } from './types';
import { nearMisses, noEffectWarnings, runtimeErrors, unknownKeyHint } from './fixture-rules';

export interface FixtureMistake {
  file: string;
  /** JSONPath of the wrong value, e.g. `$.siteFeatureConfigurations[2].featureConfig.bin_length`; "line L, column C" for text that is not JSON. */
  path: string;
  expected: string;
  actual?: string;
  /** Which rule of docs/decisions/0001-site-fixture-format.md found it (e.g. `unknown-key`, `pan-capture-option-missing`). */
  code?: string;
  /** The keys that would have been accepted; `sites:check` lists each such set once per run, not in every message. */
  allowed?: { of: string; values: readonly string[] };
}

/** What only the caller can know: `sites:check` looks in the app's `public/` folder (ADR 0020). */
export interface FixtureCheckOptions {
  /** Whether `public/{path}` is a file; without it a logo's file is not looked for. */
  publicFileExists?: (path: string) => boolean;
}

/** SPEC §7: the answer for an unknown site id lives in `fixtures/default-site.json`, not under its site id. */
const DEFAULT_SITE_FILE = 'default-site';
const DEFAULT_SITE_ID = 'default';

type Segment = string | number;
type Mistake = { at: Segment[]; expected: string; actual?: string; code?: string; allowed?: FixtureMistake['allowed'] };

let compiledValidator: ValidateFunction | undefined;
function validator(): ValidateFunction {
  compiledValidator ??= new Ajv({ allErrors: true, verbose: true, discriminator: true }).compile(siteFixtureSchema);
  return compiledValidator;
}

/** Checks the parsed content of one fixture file; an empty list means the fixture is right. */
export function checkSiteFixture(value: unknown, fileName: string, options: FixtureCheckOptions = {}): FixtureMistake[] {
  const validate = validator();
  const schemaMistakes = validate(value) ? [] : (validate.errors ?? []).flatMap((error) => describeSchemaError(value, error));
  const mistakes = [...firstPerPath(schemaMistakes), ...checkBeyondSchema(value, fileName, options)];
  return mistakes.map(({ at, expected, actual, code, allowed }) => ({
    file: fileName,
    path: formatJsonPath(at),
    expected: expected + featureContext(value, at),
    ...(actual === undefined ? {} : { actual }),
    ...(code === undefined ? {} : { code }),
    ...(allowed === undefined ? {} : { allowed }),
  }));
}

/** Parses and checks a fixture file's text; text that is not JSON gives one mistake with its line and column. */
export function checkFixtureText(text: string, fileName: string, options: FixtureCheckOptions = {}): FixtureMistake[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const { line, column } = lineAndColumn(text, firstJsonSyntaxErrorOffset(text));
    // V8's message, without the echoed text or the offset we already turned into line and column.
    const reason = (error as Error).message.replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '').replace(/(?: in JSON)? at position \d+.*$/s, '');
    return [{ file: fileName, path: `line ${line}, column ${column}`, expected: 'valid JSON', actual: reason }];
  }
  return checkSiteFixture(value, fileName, options);
}

// ---------------------------------------------------------------------------------------------
// Schema errors -> mistakes

/** A value that is not even a string fails `type` and `enum` alike; one line per wrong value is enough. */
function firstPerPath(mistakes: Mistake[]): Mistake[] {
  const seen = new Set<string>();
  return mistakes.filter(({ at }) => {
    const path = formatJsonPath(at);
    if (seen.has(path)) return false;
    seen.add(path);
    return true;
  });
}

function describeSchemaError(root: unknown, error: ErrorObject): Mistake[] {
  const at = segmentsOf(root, error.instancePath);
  const parentSchema = error.parentSchema;
  const expected = typeof parentSchema?.description === 'string' ? parentSchema.description : (error.message ?? 'a valid value');

  switch (error.keyword) {
    case 'required': {
      const missing = String(error.params.missingProperty);
      const properties = parentSchema?.properties as Record<string, JsonSchemaNode> | undefined;
      const description = properties?.[missing]?.description;
      return [{ at: [...at, missing], expected: typeof description === 'string' ? description : `a "${missing}" property`, actual: 'nothing' }];
    }
    case 'additionalProperties': {
      const known = Object.keys((parentSchema?.properties as object | undefined) ?? {});
      const unknownKey = String(error.params.additionalProperty);
      const feature = featureNameAt(root, at);
      const of = feature === undefined ? 'the site' : feature;
      return [
        {
          at: [...at, unknownKey],
          expected: `a key of ${of}${unknownKeyHint(unknownKey, feature, known)}`,
          actual: `unknown key ${JSON.stringify(unknownKey)}`,
          code: 'unknown-key',
          allowed: { of, values: known },
        },
      ];
    }
    case 'discriminator': {
      // A feature that is not an object has its `type` error and one without a name its `required` error.
      if (!isRecord(error.data) || error.data.name === undefined) return [];
      const close = typeof error.data.name === 'string' ? nearMisses(error.data.name, FEATURE_NAMES) : [];
      return [
        {
          at: [...at, 'name'],
          expected: `a feature name${close.length > 0 ? `; did you mean ${close.map((name) => `"${name}"`).join(' or ')}?` : ''}`,
          actual: describeValue(error.data.name),
          code: 'unknown-feature',
          allowed: { of: 'feature names', values: FEATURE_NAMES },
        },
      ];
    }
    default:
      return [{ at, expected, actual: describeValue(error.data) }];
  }
}

// ---------------------------------------------------------------------------------------------
// Checks a JSON Schema cannot make

function checkBeyondSchema(root: unknown, fileName: string, options: FixtureCheckOptions): Mistake[] {
  if (!isRecord(root)) return [];
  const mistakes: Mistake[] = [];

  const expectedSiteId = siteIdForFile(fileName);
  if (typeof root.siteId === 'string' && root.siteId !== expectedSiteId) {
    mistakes.push({ at: ['siteId'], expected: `${JSON.stringify(expectedSiteId)} (the file name without .json)`, actual: JSON.stringify(root.siteId) });
  }

  const features = Array.isArray(root.siteFeatureConfigurations) ? root.siteFeatureConfigurations : [];
  const firstIndexByName = new Map<string, number>();
  features.forEach((feature: unknown, index) => {
    if (!isRecord(feature) || typeof feature.name !== 'string') return;
    const earlier = firstIndexByName.get(feature.name);
    if (earlier === undefined) firstIndexByName.set(feature.name, index);
    else {
      mistakes.push({
        at: ['siteFeatureConfigurations', index, 'name'],
        expected: `each feature once (already at ${formatJsonPath(['siteFeatureConfigurations', earlier])})`,
        actual: JSON.stringify(feature.name),
      });
    }
    if (feature.name === 'user_enrollment' && isRecord(feature.featureConfig)) {
      const at: Segment[] = ['siteFeatureConfigurations', index, 'featureConfig'];
      mistakes.push(
        ...checkMasks(feature.featureConfig, at),
        ...checkRegexps(feature.featureConfig, at),
        ...checkExamples(feature.featureConfig, at),
        ...checkPrivacyPolicyLink(feature.featureConfig, at),
      );
    }
    if (feature.name === 'site_brand' && isRecord(feature.featureConfig)) {
      mistakes.push(...checkBrand(feature.featureConfig, ['siteFeatureConfigurations', index, 'featureConfig'], options));
    }
    if (feature.name === 'site_locales' && isRecord(feature.featureConfig)) {
      mistakes.push(...checkSiteLocales(feature.featureConfig, ['siteFeatureConfigurations', index, 'featureConfig', 'locales']));
    }
  });
  mistakes.push(...runtimeErrors(root));
  return mistakes;
}

/** Each locale a site is for must be one the portal serves (an unknown code would be served as en_us), once, and never the pseudo-locale. */
function checkSiteLocales(settings: Record<string, unknown>, at: Segment[]): Mistake[] {
  const locales = settings.locales;
  if (typeof locales !== 'string' || !new RegExp(LOCALE_LIST_PATTERN).test(locales)) return []; // the schema reports those
  const codes = locales.split(' ');
  const unserved = codes.filter((code) => !isSupportedLocale(code) || isPseudoLocale(code));
  if (unserved.length > 0)
    return [
      {
        at,
        expected: `locales the portal serves, language_country as in ${servedLocalesLike(unserved[0]!)}, not the pseudo-locale`,
        actual: unserved.map((code) => JSON.stringify(code)).join(', '),
      },
    ];
  const repeated = codes.filter((code, index) => codes.indexOf(code) !== index);
  if (repeated.length > 0) return [{ at, expected: 'each locale once', actual: JSON.stringify(repeated[0]) }];
  return [];
}

/** What an author meant by an unserved code: the served locales of its language, else of its country, else a few. */
function servedLocalesLike(code: string): string {
  const served = [...LOCALES.keys()].filter((locale) => !isPseudoLocale(locale));
  const [language, country] = code.toLowerCase().split(/[_-]/);
  const near = [served.filter((locale) => locale.startsWith(`${language ?? ''}_`)), served.filter((locale) => locale.endsWith(`_${country ?? ''}`))].find(
    (list) => list.length > 0,
  );
  return (near ?? ['en_us', 'pt_br', 'de_de', 'ar_qa']).slice(0, 8).join(', ');
}

function checkMasks(settings: Record<string, unknown>, at: Segment[]): Mistake[] {
  return MASK_SETTINGS.flatMap((key): Mistake[] => {
    const mask = settings[key];
    if (typeof mask !== 'string' || mask === '') return []; // the schema reports those
    const parsed = parseMask(mask);
    if (!parsed.ok) {
      return [
        {
          at: [...at, key],
          expected: MASK_DESCRIPTION,
          actual: `${JSON.stringify(mask)}, which has ${JSON.stringify(parsed.character)} at character ${parsed.position + 1}`,
        },
      ];
    }
    // SPEC §5: a masked value must fill every slot, so a mask without slots could never be filled.
    if (maskSlotCount(mask) === 0) return [{ at: [...at, key], expected: 'a mask with at least one 0, A or * slot', actual: JSON.stringify(mask) }];
    return [];
  });
}

/** SPEC §3, §5: a privacy policy the form asks the person to accept (A, B) or states (C) is linked, so it can be read first. */
function checkPrivacyPolicyLink(settings: Record<string, unknown>, at: Segment[]): Mistake[] {
  if (settings.privacy_policy_display === undefined || settings.privacy_policy_url !== undefined) return [];
  return [
    {
      at: [...at, 'privacy_policy_url'],
      expected: `the absolute https URL of the site's privacy policy, which the registration form links to (privacy_policy_display is ${JSON.stringify(settings.privacy_policy_display)})`,
      actual: 'missing',
    },
  ];
}

function checkRegexps(settings: Record<string, unknown>, at: Segment[]): Mistake[] {
  return REGEXP_SETTINGS.flatMap((key): Mistake[] => {
    const source = settings[key];
    if (typeof source !== 'string' || source === '') return [];
    try {
      new RegExp(source);
      return [];
    } catch (error) {
      return [{ at: [...at, key], expected: 'a regular expression that compiles', actual: `${JSON.stringify(source)}: ${(error as Error).message}` }];
    }
  });
}

/**
 * ADR 0020: the colours the themes draw with must reach WCAG AA (4.5:1) in every pair they form,
 * and a logo must be a file the build serves. Malformed values are the schema's to report.
 */
function checkBrand(settings: Record<string, unknown>, at: Segment[], options: FixtureCheckOptions): Mistake[] {
  const colour = (key: string): string | null => (typeof settings[key] === 'string' ? normaliseHexColour(settings[key]) : null);
  const primaryColor = colour(BRAND_SETTINGS.primaryColor);
  const accentColor = colour(BRAND_SETTINGS.accentColor);
  const mistakes: Mistake[] = [];
  // A malformed colour is the schema's mistake; its pairs are judged once it is a colour.
  const malformed = [BRAND_SETTINGS.primaryColor, BRAND_SETTINGS.accentColor].some((key) => settings[key] !== undefined && colour(key) === null);
  if (!malformed && (primaryColor !== null || accentColor !== null)) {
    for (const pair of failingBrandContrast({ primaryColor, accentColor })) {
      mistakes.push({ at: [...at, pair.setting], expected: 'brand colours whose text contrast reaches WCAG AA (4.5:1)', actual: pair.message });
    }
  }
  const logo = settings[BRAND_SETTINGS.logo];
  if (typeof logo === 'string' && isLogoPath(logo) && options.publicFileExists && !options.publicFileExists(logo)) {
    mistakes.push({
      at: [...at, BRAND_SETTINGS.logo],
      expected: "a file that exists under the app's public/ folder",
      actual: `${JSON.stringify(logo)}: no file public/${logo}`,
    });
  }
  return mistakes;
}

/** A formatted field's settings (SPEC §3 user_enrollment) and the site's own rule for its value. */
interface FormattedField {
  example: string;
  mask: string;
  regexp: string;
  uppercase?: string;
  /** The rule the form applies to the value (schemas/validators). */
  rule(settings: Readonly<Record<string, string | undefined>>, value: string): FieldError | null;
  /** The mask the field is formatted with, if any: it is the field's hint when there is no example. */
  shapeMask(settings: Readonly<Record<string, string | undefined>>): string | undefined;
}

const FORMATTED_FIELDS: readonly FormattedField[] = [
  {
    example: 'phone_example',
    mask: 'phone_mask',
    regexp: 'phone_regexp',
    rule: (settings, value) => validatePhone(value, { mask: settings.phone_mask, regexp: settings.phone_regexp }),
    shapeMask: (settings) => settings.phone_mask,
  },
  {
    example: 'national_id_example',
    mask: 'national_id_mask',
    regexp: 'national_id_regexp',
    uppercase: 'national_id_uppercase',
    rule: (settings, value) =>
      validateNationalId(value, { type: settings.national_id_type, mask: settings.national_id_mask, regexp: settings.national_id_regexp }),
    shapeMask: (settings) => nationalIdMask(settings.national_id_type, settings.national_id_mask),
  },
  {
    example: 'postal_code_example',
    mask: 'postal_code_mask',
    regexp: 'postal_code_regexp',
    uppercase: 'postal_code_uppercase',
    rule: (settings, value) => validatePostalCode(value, { mask: settings.postal_code_mask, regexp: settings.postal_code_regexp }),
    shapeMask: (settings) => postalCodeMask({ mask: settings.postal_code_mask, regexp: settings.postal_code_regexp }),
  },
];

/** Only the text settings: the schema reports every other value. */
function textSettings(settings: Record<string, unknown>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(settings).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''));
}

/**
 * SPEC §5: an example is what the person is told to type, so the site's own rule must accept it
 * (after the upper-casing the site asks for); one it refuses would teach the wrong shape.
 */
function checkExamples(settings: Record<string, unknown>, at: Segment[]): Mistake[] {
  const texts = textSettings(settings);
  return FORMATTED_FIELDS.flatMap((field): Mistake[] => {
    const example = texts[field.example];
    if (example === undefined) return [];
    const value = field.uppercase !== undefined && texts[field.uppercase] === 'true' ? upperCaseLetters(example) : example;
    if (field.rule(texts, value) === null) return [];
    const rules = [field.mask, field.regexp].filter((key) => texts[key] !== undefined);
    return [
      {
        at: [...at, field.example],
        expected: `an example the site's own ${rules.length > 0 ? rules.join(' and ') : 'rule'} accepts`,
        actual: JSON.stringify(example),
      },
    ];
  });
}

/**
 * Warnings: a field checked by a regexp alone whose shape cannot be read from it ("6 to 10 digits")
 * and that has no example, so its hint and error can only say "the format this site uses".
 */
export function checkSiteFixtureWarnings(value: unknown, fileName: string): FixtureMistake[] {
  if (!isRecord(value) || !Array.isArray(value.siteFeatureConfigurations)) return [];
  const warnings: FixtureMistake[] = [];
  value.siteFeatureConfigurations.forEach((feature: unknown, index) => {
    if (!isRecord(feature) || feature.name !== 'user_enrollment' || !isRecord(feature.featureConfig)) return;
    const texts = textSettings(feature.featureConfig);
    for (const field of FORMATTED_FIELDS) {
      const regexp = texts[field.regexp];
      if (regexp === undefined || texts[field.example] !== undefined || field.shapeMask(texts) !== undefined || digitCountOf(regexp) !== null) continue;
      warnings.push({
        file: fileName,
        path: formatJsonPath(['siteFeatureConfigurations', index, 'featureConfig', field.example]),
        expected: `an example value for ${field.regexp} (user_enrollment.${field.example}), so the form can show what it expects`,
        actual: 'nothing',
      });
    }
  });
  return warnings;
}

/**
 * Warnings: settings the format accepts that have no effect in the portal (fixture-rules.ts), each
 * at its JSON path, so an author never believes a site does something it does not.
 */
export function checkSettingsWithoutEffect(value: unknown, fileName: string): FixtureMistake[] {
  return noEffectWarnings(value).map(({ at, expected, actual, code }) => ({
    file: fileName,
    path: formatJsonPath(at),
    expected: expected + featureContext(value, at),
    ...(actual === undefined ? {} : { actual }),
    code,
  }));
}

function siteIdForFile(fileName: string): string {
  const base =
    fileName
      .split(/[\\/]/)
      .pop()
      ?.replace(/\.json$/, '') ?? '';
  return base === DEFAULT_SITE_FILE ? DEFAULT_SITE_ID : base;
}

// ---------------------------------------------------------------------------------------------
// Paths and values

/** Turns ajv's JSON Pointer into segments, using the data to tell array indexes from keys. */
function segmentsOf(root: unknown, pointer: string): Segment[] {
  if (pointer === '') return [];
  let node = root;
  return pointer
    .slice(1)
    .split('/')
    .map((token) => {
      const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
      const segment: Segment = Array.isArray(node) ? Number(key) : key;
      node = Array.isArray(node) ? node[Number(key)] : isRecord(node) ? node[key] : undefined;
      return segment;
    });
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** `$.siteFeatureConfigurations[2].featureConfig.bin_length`: the path every finding of the lint and the simulation names. */
export function formatJsonPath(segments: readonly Segment[]): string {
  return segments
    .map((segment) => {
      if (typeof segment === 'number') return `[${segment}]`;
      return IDENTIFIER.test(segment) ? `.${segment}` : `['${segment.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
    })
    .reduce((path, part) => path + part, '$');
}

/** The feature whose settings `at` points into (`$.siteFeatureConfigurations[i].featureConfig`), if any. */
function featureNameAt(root: unknown, at: readonly Segment[]): string | undefined {
  const [list, index, config] = at;
  if (list !== 'siteFeatureConfigurations' || typeof index !== 'number' || config !== 'featureConfig' || !isRecord(root)) return undefined;
  const features = root.siteFeatureConfigurations;
  const feature = Array.isArray(features) ? (features[index] as unknown) : undefined;
  return isRecord(feature) && typeof feature.name === 'string' ? feature.name : undefined;
}

/** " (user_enrollment.bin_length)" for a mistake inside a feature, so the message names the feature. */
function featureContext(root: unknown, at: readonly Segment[]): string {
  const [list, index, config, key] = at;
  if (list !== 'siteFeatureConfigurations' || typeof index !== 'number' || config !== 'featureConfig' || !isRecord(root)) return '';
  const features = root.siteFeatureConfigurations;
  const feature = Array.isArray(features) ? (features[index] as unknown) : undefined;
  if (!isRecord(feature) || typeof feature.name !== 'string') return '';
  return ` (${key === undefined ? feature.name : `${feature.name}.${key}`})`;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (isRecord(value)) return 'an object';
  return JSON.stringify(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// Where JSON text goes wrong. V8 does not always say ("Unexpected token '}', ... is not valid
// JSON" has no position), so this small scanner finds the offset of the first bad character.

const JSON_NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const JSON_ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

function firstJsonSyntaxErrorOffset(text: string): number {
  let at = 0;
  const skipWhitespace = (): void => {
    while (at < text.length && ' \t\n\r'.includes(text.charAt(at))) at++;
  };
  const stringToken = (): boolean => {
    at++; // opening quote
    while (at < text.length) {
      const character = text.charAt(at);
      if (character === '"') {
        at++;
        return true;
      }
      if (character < ' ') return false;
      if (character === '\\') {
        JSON_ESCAPE.lastIndex = at;
        if (!JSON_ESCAPE.test(text)) return false;
        at = JSON_ESCAPE.lastIndex;
      } else at++;
    }
    return false;
  };
  const container = (close: '}' | ']'): boolean => {
    at++; // opening bracket
    skipWhitespace();
    if (text.charAt(at) === close) {
      at++;
      return true;
    }
    for (;;) {
      if (close === '}') {
        skipWhitespace();
        if (text.charAt(at) !== '"' || !stringToken()) return false;
        skipWhitespace();
        if (text.charAt(at) !== ':') return false;
        at++;
      }
      if (!value()) return false;
      skipWhitespace();
      const separator = text.charAt(at);
      if (separator === close) {
        at++;
        return true;
      }
      if (separator !== ',') return false;
      at++;
    }
  };
  const value = (): boolean => {
    skipWhitespace();
    const character = text.charAt(at);
    if (character === '{') return container('}');
    if (character === '[') return container(']');
    if (character === '"') return stringToken();
    const literal = ['true', 'false', 'null'].find((word) => word.startsWith(character));
    if (literal !== undefined) {
      // Like V8, point at the first character that breaks the word ("nul}" -> "}").
      for (const expected of literal) {
        if (text.charAt(at) !== expected) return false;
        at++;
      }
      return true;
    }
    JSON_NUMBER.lastIndex = at;
    if (!JSON_NUMBER.test(text)) return false;
    at = JSON_NUMBER.lastIndex;
    return true;
  };
  if (value()) skipWhitespace(); // anything left after a complete value is the mistake
  return at;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}
