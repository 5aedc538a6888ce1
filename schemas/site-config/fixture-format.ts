/**
 * JSON Schema (draft-07) of a site fixture: the site-config service's answer, verbatim
 * (SPEC §3 "Site config", §7 `GET site-config-service/config/site/{siteId}`), as fixed by
 * docs/decisions/0001-site-fixture-format.md. Keep the feature table below and that record in step.
 *
 * Strict on purpose: `additionalProperties: false` everywhere, so a misspelt feature or key is a
 * mistake and never silently ignored. Every node carries a `description` phrased as what was
 * expected; `fixture-check.ts` turns it into the message an author reads. Features are told apart
 * by a `discriminator` on `name`, so a wrong setting yields one precise error, not one per feature.
 */
import { BRAND_COLOUR_PATTERN, LOGO_PATH_PATTERN, SITE_THEMES } from './site-brand';
import { FEATURE_NAMES, LEVEL_CODES, PRIVACY_POLICY_DISPLAYS, SITE_ID_PATTERN, type FeatureName } from './types';

export type JsonSchemaNode = { readonly [keyword: string]: unknown };

const stringSchema = (description: string, rule: JsonSchemaNode): JsonSchemaNode => ({ type: 'string', ...rule, description });
const oneOfTexts = (values: readonly string[]): JsonSchemaNode =>
  stringSchema(
    values
      .map((value) => JSON.stringify(value))
      .join(', ')
      .replace(/, ([^,]*)$/, ' or $1'),
    { enum: values },
  );

// Value kinds of the decision record's table. Integers and flags are strings, as the service sends them.
/** SPEC §3 server codes: 0/5 Mandatory, 1 Optional, 2/4 None, 3 ProfileOptional. */
const LEVEL = stringSchema('a level code from "0" to "5"', { enum: LEVEL_CODES });
const FLAG = oneOfTexts(['true', 'false']);
const TEXT = stringSchema('a non-empty text', { pattern: '\\S' });
const WORD = stringSchema('a text without spaces', { pattern: '^\\S+$' });
const POSITIVE_INTEGER = stringSchema('a positive integer as a string', { pattern: '^[1-9][0-9]*$' });
const BIN_LENGTH = stringSchema('an integer from 4 to 19 as a string', { pattern: '^(?:[4-9]|1[0-9])$' });
const AGE = stringSchema('an integer from 0 to 120 as a string', { pattern: '^(?:[0-9]|[1-9][0-9]|1[01][0-9]|120)$' });
/** Read by `parseMask`; the schema only asks for text so the check can name the unreadable character. */
export const MASK_DESCRIPTION = 'a mask of 0 (digit), A (letter), * (letter or digit) and the literals space ( ) - . / + :';
const MASK = stringSchema(MASK_DESCRIPTION, { minLength: 1 });
/** Compiled by the check (`new RegExp`), which JSON Schema cannot do. */
const REGEXP = stringSchema('a regular expression', { minLength: 1 });
/** Each of YYYY, MM and DD exactly once, separated twice by the same character. */
const DATE_FORMAT = stringSchema('YYYY, MM and DD in any order joined by one of "-", "/" or "." (e.g. "DD/MM/YYYY")', {
  pattern: '^(?=.*YYYY)(?=.*MM)(?=.*DD)(?:YYYY|MM|DD)([-/.])(?:YYYY|MM|DD)\\1(?:YYYY|MM|DD)$',
});
/** Asset endpoints are paths under the gateway base (SPEC §7 "{assets url}"), never absolute URLs. */
const GATEWAY_PATH_PATTERN = '(?!.*\\.\\.)(?!.*//)[a-z0-9][A-Za-z0-9._~/-]*';
const GATEWAY_PATH = stringSchema('a path under the gateway base, e.g. "user-attribute/user/assets"', {
  pattern: `^${GATEWAY_PATH_PATTERN}$`,
});
const UPDATE_ASSET_PATH = stringSchema('a path under the gateway base containing {{id}}, e.g. "user-attribute/user/assets/{{id}}"', {
  pattern: '^(?!.*\\.\\.)(?!.*//)[a-z0-9][A-Za-z0-9._~/{}-]*\\{\\{id\\}\\}[A-Za-z0-9._~/{}-]*$',
});
const HTTP_URL_PATTERN = 'https?://[^\\s/?#]+(?:[/?#]\\S*)?';
const HTTP_URL = stringSchema('an absolute http(s) URL', { pattern: `^${HTTP_URL_PATTERN}$` });
const REDIRECT_URI = `(?:${HTTP_URL_PATTERN}|/\\S*)`;
const REDIRECT_URIS = stringSchema('absolute http(s) URLs or site paths starting with "/", separated by single spaces', {
  pattern: `^${REDIRECT_URI}(?: ${REDIRECT_URI})*$`,
});

/**
 * SPEC §2 mobile deep link: the app's own scheme, written with its "://". Web and script schemes are
 * refused, since every return URL of theirs would then count as the app's.
 */
const APP_SCHEME = stringSchema(
  'an app scheme ending in "://": a lowercase letter, then lowercase letters, digits, "+", "-" or "." (e.g. "firstbankrewards://"), not http, https, javascript, vbscript, data, file, blob or about',
  { pattern: '^(?!(?:https?|javascript|data|file|blob|about|vbscript)://)[a-z][a-z0-9+.-]*://$' },
);
/** The codes' shape; the check asks the locale table whether the portal serves each one. */
export const LOCALE_LIST_PATTERN = '^[a-z]{2}_[a-z]{2}(?: [a-z]{2}_[a-z]{2})*$';
const LOCALE_LIST = stringSchema('locale codes like "ar_qa" separated by single spaces, the site\'s own first (e.g. "ar_qa en_us")', {
  pattern: LOCALE_LIST_PATTERN,
});
const HTTPS_URL = stringSchema('an absolute https URL', { pattern: '^https://[^\\s/?#]+(?:[/?#]\\S*)?$' });
/** ADR 0020: opaque, so the check can compute its contrast. */
const BRAND_COLOUR = stringSchema('a CSS hex colour "#rgb" or "#rrggbb" (e.g. "#0b3d91"; no transparency, no colour names)', { pattern: BRAND_COLOUR_PATTERN });

/** `user_enrollment` settings the check reads further: masks must parse, regexps must compile. */
export const MASK_SETTINGS = ['phone_mask', 'national_id_mask', 'postal_code_mask'] as const;
export const REGEXP_SETTINGS = ['phone_regexp', 'national_id_regexp', 'postal_code_regexp'] as const;
/** An example value shown as the field's hint and in its error (SPEC §5); the check runs it through the site's own rule. */
export const EXAMPLE_SETTINGS = ['phone_example', 'national_id_example', 'postal_code_example'] as const;
/** Letters upper-cased as typed and before the gateway validates (schemas/forms/normalise-form-data.ts). */
export const UPPERCASE_SETTINGS = ['national_id_uppercase', 'postal_code_uppercase'] as const;

const all = (keys: readonly string[], kind: JsonSchemaNode): Record<string, JsonSchemaNode> => Object.fromEntries(keys.map((key) => [key, kind]));

/** The decision record's table: every feature and the settings it may carry (SPEC §3). */
export const FEATURE_SETTINGS: Readonly<Record<FeatureName, Readonly<Record<string, JsonSchemaNode>>>> = {
  user_global_profile: all(['first_name', 'last_name', 'dob', 'email', 'password', 'confirm_password', 'title', 'locale', 'country', 'gender'], LEVEL),
  user_site_profile: all(
    [
      'state',
      'region',
      'phone',
      'ninedigitbin',
      'bin',
      'bank',
      'email_optin',
      'marketing_opt_ins',
      'offers_preference',
      'nationalId',
      'business_type',
      'address',
      'address.street',
      'address.number',
      'address.neighborhood',
      'address.additionalInformation',
      'address.city',
      'address.state',
      'address.zipcode',
      'redeemed_offers',
      'campaigns',
      'marketing_platform_level_optin',
      'customerOriginDetails',
    ],
    LEVEL,
  ),
  user_asset_profile: { pan: LEVEL },
  user_enrollment: {
    bin_length: BIN_LENGTH,
    ...all(MASK_SETTINGS, MASK),
    ...all(REGEXP_SETTINGS, REGEXP),
    ...all(EXAMPLE_SETTINGS, TEXT),
    ...all(UPPERCASE_SETTINGS, FLAG),
    national_id_type: oneOfTexts(['cpf', 'ssn', 'other']),
    date_format: DATE_FORMAT,
    dob_min_age: AGE,
    privacy_policy_display: oneOfTexts(PRIVACY_POLICY_DISPLAYS),
    privacy_policy_url: HTTPS_URL,
    ...all(['send_sms', 'six_digit_verification', 'captcha_required'], FLAG),
  },
  pan_capture: {
    ...all(['updatable', 'check_card_active_status', 'capture_cvv', 'cashback_enabled', 'pan_update_allowed', 'optional', 'validate'], FLAG),
    ...all(['limit', 'maxLength'], POSITIVE_INTEGER),
    ...all(
      [
        'name',
        'label',
        'placeholder',
        'submitText',
        'deleteLinkText',
        'panAddRequireMessage',
        'optInText',
        'panCancelButtonText',
        'panDeleteRequiredMessage',
        'panDeleteSuccessMessage',
        'panAddSuccessMessage',
        'error',
      ],
      TEXT,
    ),
    ...all(['assetsUrl', 'assetsValidationUrl'], GATEWAY_PATH),
    updateAssetUrl: UPDATE_ASSET_PATH,
  },
  marketing_optins: all(['email', 'transactional', 'sms', 'online', 'cashback', 'all_of_the_above'], FLAG),
  vba: all(['enabled', 'compromised_password_check'], FLAG),
  site_auth_profile: {
    auth_mechanism: oneOfTexts(['SSO', 'CLASSIC']),
    issuer_url: HTTP_URL,
    // ADR 0001: the name people know their bank's sign-in app by, shown on redirect-sso as written.
    connected_app: stringSchema(
      'the name of the bank\'s sign-in app as people know it, e.g. "Smile": 1 to 40 characters, no line break or control character, no space at either end',
      {
        pattern: '^[^\\s\\x00-\\x1f\\x7f](?:[^\\x00-\\x1f\\x7f]{0,38}[^\\s\\x00-\\x1f\\x7f])?$',
      },
    ),
    client_id: WORD,
    redirect_uris: REDIRECT_URIS,
    client_auth: oneOfTexts(['none', 'client_secret_basic', 'private_key_jwt']),
    // ADR 0028: an SSO site speaks OpenID Connect (the default) or SAML 2.0.
    protocol: oneOfTexts(['oidc', 'saml']),
    saml_idp_metadata_url: HTTP_URL,
    saml_idp_metadata: stringSchema('the identity provider\'s SAML metadata XML (an EntityDescriptor), starting with "<"', { pattern: '^\\s*<' }),
    saml_sp_entity_id: WORD,
    saml_acs_url: HTTP_URL,
    saml_email_attribute: WORD,
    login_otp: oneOfTexts(['none', 'email', 'sms', 'choice']),
    mfa: oneOfTexts(['off', 'optional', 'required']),
  },
  cms: {
    tenant: stringSchema('"default", "vpp" or another lowercase word', { pattern: '^[a-z][a-z0-9_-]*$' }),
  },
  allow_delete_profile: { allow_delete_profile: FLAG },
  mobile_app: { app_scheme: APP_SCHEME, android_store_url: HTTPS_URL },
  site_locales: { locales: LOCALE_LIST },
  site_brand: {
    ...all(['primary_color', 'accent_color'], BRAND_COLOUR),
    logo: stringSchema(
      'a file of the app\'s public/ folder, e.g. "brands/firstbank.svg": letters, digits, "_", "-", "." and "/", ending in .svg, .png or .webp, without "..", "//" or a URL',
      { pattern: LOGO_PATH_PATTERN },
    ),
  },
};

function featureEntry(name: FeatureName): JsonSchemaNode {
  return {
    type: 'object',
    description: 'a feature { "name", "featureConfig" }',
    properties: {
      name: { const: name },
      featureConfig: {
        type: 'object',
        description: 'an object of settings, each value a string',
        properties: FEATURE_SETTINGS[name],
        additionalProperties: false,
      },
    },
    required: ['name', 'featureConfig'],
    additionalProperties: false,
  };
}

// The fixture format's own word for a site id's shape; defined with the site config's types (types.ts).
export { SITE_ID_PATTERN };

export const siteFixtureSchema: JsonSchemaNode = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Site fixture (docs/decisions/0001-site-fixture-format.md)',
  type: 'object',
  description: 'a site config { "name", "siteId", "theme", "siteFeatureConfigurations" }',
  properties: {
    // Editors read it to complete and check the file as it is typed (README "Adding a site"); the portal ignores it.
    $schema: stringSchema('the path of the fixture JSON Schema, "../../schemas/site-config/site-fixture.schema.json"', { minLength: 1 }),
    name: stringSchema('a non-empty site name', { pattern: '\\S' }),
    siteId: stringSchema('a site id: lowercase letters, digits, "_" or "-", starting with a letter or digit, at most 64 long', {
      pattern: SITE_ID_PATTERN,
    }),
    // SPEC §3 theme; the themes and what they look like: fixtures/README.md "Themes and brands".
    theme: stringSchema(`a theme: ${SITE_THEMES.map((theme) => JSON.stringify(theme)).join(' or ')} (fixtures/README.md "Themes and brands")`, {
      enum: SITE_THEMES,
    }),
    siteFeatureConfigurations: {
      type: 'array',
      description: 'a list of features { "name", "featureConfig" }',
      items: {
        type: 'object',
        description: 'a feature { "name", "featureConfig" }',
        required: ['name'],
        discriminator: { propertyName: 'name' },
        oneOf: FEATURE_NAMES.map(featureEntry),
      },
    },
  },
  required: ['name', 'siteId', 'theme', 'siteFeatureConfigurations'],
  additionalProperties: false,
};

/** Where the schema is published for editors (a fixture names it in `$schema`), relative to the repository root. */
export const SITE_FIXTURE_SCHEMA_FILE = 'schemas/site-config/site-fixture.schema.json';

/** The published file's exact text: `sites:check --write-schema` writes it and a unit test compares it. */
export function siteFixtureSchemaText(): string {
  return `${JSON.stringify(siteFixtureSchema, null, 2)}\n`;
}
