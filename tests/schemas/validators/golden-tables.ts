/**
 * Golden tables of SPEC §5: for each rule, values with the site options they are checked under and
 * the answer expected. Exported so the gateway's tests run the very same rows through the gateway
 * (ADR 0005 "Consequences": one implementation, one set of answers, browser and server).
 *
 * A row is `[value, options, expected]`: `options` are the rule's schema options (what the schema
 * translator stores), `expected` the FieldError or `null`. Values are non-empty: empty values are
 * the required rule's (REQUIRED_TABLE). `dob` rows are checked on GOLDEN_TODAY.
 */
import type { CalendarDay, FieldError, RuleName, SchemaRuleOptions } from '../../../schemas/validators';
import { nationalIdOptionsOf, phoneOptionsOf, postalCodeOptionsOf } from './fixture-settings';

/** SPEC §5 postal code with a regexp and no mask: no site of ours asks a UK address, so the setting is written here. */
const UK_POSTCODE_REGEXP_ONLY: SchemaRuleOptions = { regexp: '^[A-Za-z]{1,2}[0-9][A-Za-z0-9]? ?[0-9][A-Za-z]{2}$' };

export type GoldenRow = readonly [value: string, options: SchemaRuleOptions, expected: FieldError | null];
export interface GoldenTable {
  /** The SPEC section and rule, for test names. */
  title: string;
  rule: RuleName;
  rows: readonly GoldenRow[];
}

/** The fixed "today" of every date-of-birth row: 15 June 2025. */
export const GOLDEN_TODAY: CalendarDay = { year: 2025, month: 6, day: 15 };

const error: FieldError = { key: 'error' };
const invalid: FieldError = { key: 'invalid' };
const rulesFailed = (count: number): FieldError => ({ key: 'passwordRulesError', values: { count } });
const binInvalid = (length: number): FieldError => ({ key: 'invalid', values: { count: length } });
const incomplete: FieldError = { key: 'IncompleteFieldError' };
const unreadable: FieldError = { key: 'incompleteFormateError' };
const tooOld: FieldError = { key: 'maxAgeError' };
const tooYoung = (age: number): FieldError => ({ key: 'invalidAgeError', values: { count: age } });

const none: SchemaRuleOptions = {};
const valid = (values: readonly string[], options: SchemaRuleOptions = none): GoldenRow[] => values.map((value) => [value, options, null]);
const rejected = (values: readonly string[], expected: FieldError, options: SchemaRuleOptions = none): GoldenRow[] =>
  values.map((value) => [value, options, expected]);

/** SPEC §5: the characters no name or address part may hold. */
export const NAME_FORBIDDEN_CHARACTERS = [...'.*+?^${}()<>|[]\\'];

export const NAME_TABLE: GoldenTable = {
  title: '§5 names (first_name, last_name)',
  rule: 'name',
  rows: [
    ...valid([
      'John',
      'Mary-Jane',
      "O'Brien",
      'José',
      'Zoë',
      'van der Berg',
      'Nguyễn Văn An',
      '李小龍',
      'Anne Marie',
      'D’Angelo',
      'Müller',
      'Łukasz',
      'X Æ A-12',
    ]),
    ...rejected(
      NAME_FORBIDDEN_CHARACTERS.map((character) => `Jo${character}hn`),
      error,
    ),
    ...rejected(['J.R.', 'Dr. Who', '<script>', 'a|b', 'back\\slash', '$(rm -rf)', '[admin]', '{{name}}'], error),
  ],
};

export const ADDRESS_PART_TABLE: GoldenTable = {
  title: '§5 address parts (street, number, neighborhood, city, ...)',
  rule: 'addressPart',
  rows: [
    ...valid([
      'Rua das Flores',
      '1234',
      'Apt 5B',
      'Av Paulista, 1000',
      '5/7 Main St',
      'São Paulo',
      'Köln',
      'Suite #200',
      "O'Connell Street",
      'Block 7 - Unit 3',
      '中環',
      'Cnr King & Queen',
    ]),
    ...rejected(
      NAME_FORBIDDEN_CHARACTERS.map((character) => `Main ${character} St`),
      error,
    ),
    ...rejected(
      [
        '<b>bold</b>',
        '<img src=x onerror=alert(1)>',
        'http',
        'see http example',
        'HTTPS everywhere',
        'hTtP',
        'ftp://files',
        'a://b',
        'a//b',
        '//evil',
        './x',
        '../etc',
        'www.example',
      ],
      error,
    ),
  ],
};

/** 254 characters is the most an address may have; this one has 261. */
const TOO_LONG_EMAIL = `a@${`${'b'.repeat(63)}.`.repeat(4)}com`;

export const EMAIL_TABLE: GoldenTable = {
  title: '§5 email (trimmed, key error)',
  rule: 'email',
  rows: [
    ...valid([
      'user@example.com',
      '  user@example.com  ',
      'first.last@sub.example.co.uk',
      'user+tag@example.org',
      "o'brien@example.ie",
      'x@example.museum',
      'user@[192.168.0.1]',
      'USER@EXAMPLE.COM',
      '1234@numbers.io',
      'a_b-c@my-domain.com.br',
      `${'a'.repeat(64)}@example.com`,
      'x@a.bc',
    ]),
    ...rejected(
      [
        'plain',
        '@example.com',
        'user@',
        'user@example',
        'user@localhost',
        'user@example.c',
        'user@example.123',
        'user@@example.com',
        'user.@example.com',
        '.user@example.com',
        'us..er@example.com',
        'user@-example.com',
        'user@example-.com',
        'user@example..com',
        'user@example.com.',
        'user@[300.1.1.1]',
        'user@[1.2.3]',
        'user name@example.com',
        'user@exa mple.com',
        '<user@example.com>',
        `${'a'.repeat(65)}@example.com`,
        TOO_LONG_EMAIL,
      ],
      error,
    ),
  ],
};

export const PASSWORD_TABLE: GoldenTable = {
  title: '§5 password rules (passwordRulesError with the count of failed rules)',
  rule: 'password',
  rows: [
    ...valid(['Passw0rd!', 'C0mpl3x#Pass', 'Aa1!aaaa', 'Ünïcödé1!', 'ÀbcdéF9_', 'xY7$xY7$xY7$', 'Tr0ub4dor&3', 'correctHorse9?', '12345aA!', 'aA1-aA1-']),
    ['Passw0rd', none, rulesFailed(1)], // special
    ['PASSWORD1!', none, rulesFailed(1)], // lowercase
    ['password1!', none, rulesFailed(1)], // uppercase
    ['Password!!', none, rulesFailed(1)], // digit
    ['Pass 0rd!', none, rulesFailed(1)], // whitespace
    ['Aa1!Aa1', none, rulesFailed(1)], // length 7
    ['Aa1!\u00A0Aa1', none, rulesFailed(1)], // a no-break space is whitespace (a tab is a control character: CONTROL_CHARACTERS)
    ['AAAAAAA1', none, rulesFailed(2)], // lowercase, special
    ['password', none, rulesFailed(3)], // digit, uppercase, special
    ['12345678', none, rulesFailed(3)], // lowercase, uppercase, special
    ['!!!!!!!!', none, rulesFailed(3)], // digit, lowercase, uppercase
    ['abc', none, rulesFailed(4)], // length, digit, uppercase, special
    ['_', none, rulesFailed(4)], // length, digit, lowercase, uppercase
    ['a b', none, rulesFailed(5)], // all but lowercase
    ['字 字', none, rulesFailed(6)], // a letter without case and a space: every rule fails
  ],
};

export const BIN_TABLE: GoldenTable = {
  title: '§5 bin (bin_length, default 9; numeric; starts with 4)',
  rule: 'bin',
  rows: [
    ...valid(['411111111', '400000000', '499999999', '412345678', '456789012', '401288888', '476173900']),
    ...valid(['41111111', '40000000', '49999999', '45678901'], { binLength: 8 }),
    ...rejected(
      ['511111111', '011111111', '41111111', '4111111111', '4111 1111', '41111111a', '４11111111', '-41111111', ' 41111111', '4.1111111'],
      binInvalid(9),
    ),
    ...rejected(['411111111', '51111111', '4111111', '4111111a'], binInvalid(8), { binLength: 8 }),
  ],
};

const firstbankPhone = phoneOptionsOf('firstbank');
const bancosolPhone = phoneOptionsOf('bancosol', 'pt_br');
const dohabankPhone = phoneOptionsOf('dohabank', 'ar_qa');

export const PHONE_TABLE: GoldenTable = {
  title: '§5 phone (site mask and regexp, pt_br mobile, default international)',
  rule: 'phone',
  rows: [
    // firstbank: (000) 000-0000 and a US regexp
    ...valid(['(212) 555-0123', '2125550123', '212-555-0123', '(987) 654-3210'], firstbankPhone),
    ...rejected(['(112) 555-0123', '(212) 155-0123', '(212) 555-012', '(212) 555-01234', '+1 212 555 0123', '(212) 555-012a'], invalid, firstbankPhone),
    // bancosol: pt_br, (00) 00000-0000, mobile numbers with 9 after the area code
    ...valid(['(11) 98765-4321', '11987654321', '(21) 99999-0000'], bancosolPhone),
    ...rejected(['(11) 3456-7890', '(11) 88765-4321', '(01) 98765-4321', '(11) 98765-432', '+55 (11) 98765-4321'], invalid, bancosolPhone),
    // pt_br without site settings still needs the mobile pattern
    ['11987654321', { locale: 'pt_br' }, null],
    ['1134567890', { locale: 'pt_br' }, invalid],
    // dohabank: 0000 0000 (Qatar)
    ...valid(['5512 3456', '33123456', '7000 0000'], dohabankPhone),
    ...rejected(['4512 3456', '5512 345', '5512 34567', '+974 5512 3456'], invalid, dohabankPhone),
    // more fixture sites
    ['300 123 4567', phoneOptionsOf('sabana', 'es_co'), null],
    ['200 123 4567', phoneOptionsOf('sabana', 'es_co'), invalid],
    ['01632 960123', phoneOptionsOf('vppcards', 'en_gb'), null],
    ['11632 960123', phoneOptionsOf('vppcards', 'en_gb'), invalid],
    ['030 1234567', phoneOptionsOf('eurobank', 'de_de'), null],
    ['+4930 1234567', phoneOptionsOf('eurobank', 'de_de'), null],
    ['1234 567890', phoneOptionsOf('eurobank', 'de_de'), invalid],
    ['2123 4567', phoneOptionsOf('harbourbank', 'zh_hk'), null],
    ['1123 4567', phoneOptionsOf('harbourbank', 'zh_hk'), invalid],
    // default: optional +, 7–15 digits, common separators
    ...valid(['+1 212 555 0123', '+44 20 7946 0958', '0201234567', '(02) 1234-5678', '+5511987654321', '1234567', '030.1234.5678']),
    ...rejected(['123456', '+1234567890123456', '12++34567', 'phone', '+', '212-555-0123 ext 4', '1234567a', '1234567+'], invalid),
    // a site regexp that does not compile counts as none: the default pattern applies
    ['+1 212 555 0123', { regexp: '([' }, null],
    ['12345', { regexp: '([' }, invalid],
  ],
};

export const CPF_TABLE: GoldenTable = {
  title: '§5 national id cpf (check digits, repeated digits, mask 000.000.000-00)',
  rule: 'nationalId',
  rows: [
    ...valid(
      [
        '529.982.247-25',
        '52998224725',
        '111.444.777-35',
        '123.456.789-09',
        '935.411.347-80',
        '39053344705',
        '048.123.456-00',
        '714.602.380-01',
        '286.118.130-30',
        '003.172.019-64',
        '85351346893',
        '463.212.450-89',
        '100.000.001-08',
      ],
      nationalIdOptionsOf('bancosol'),
    ),
    ...rejected(
      [
        '111.111.111-11',
        '000.000.000-00',
        '999.999.999-99',
        '529.982.247-24',
        '529.982.247-15',
        '52998224726',
        '529.982.247-2',
        '529.982.247-255',
        '529982247-25',
        '529.982.247 25',
        'abc.def.ghi-jk',
        '5299822472x',
        '52998224725 ',
      ],
      invalid,
      nationalIdOptionsOf('bancosol'),
    ),
  ],
};

const ssn: SchemaRuleOptions = nationalIdOptionsOf('firstbank');

export const SSN_TABLE: GoldenTable = {
  title: '§5 national id ssn (area, group, serial, known invalid numbers; mask 000-00-0000)',
  rule: 'nationalId',
  rows: [
    ...valid(
      ['536-22-4189', '536224189', '001-01-0001', '665-12-3456', '667-12-3456', '899-99-9999', '123-45-6788', '078-05-1121', '219-09-9998', '772-10-1234'],
      ssn,
    ),
    ...rejected(['000-12-3456', '666-12-3456', '900-12-3456', '950-12-3456', '999-12-3456'], invalid, ssn), // area
    ...rejected(['536-00-4189'], invalid, ssn), // group
    ...rejected(['536-22-0000'], invalid, ssn), // serial
    ...rejected(['078-05-1120', '219-09-9999', '457-55-5462', '123-45-6789', '123456789'], invalid, ssn), // known invalid
    ...rejected(['536-22-418', '5362241890', '536 22 4189', '53-622-4189', '536-22-418x'], invalid, ssn), // shape
  ],
};

export const OTHER_NATIONAL_ID_TABLE: GoldenTable = {
  title: '§5 national id of other types (site regexp and mask)',
  rule: 'nationalId',
  rows: [
    ['28412345678', nationalIdOptionsOf('dohabank'), null],
    ['18412345678', nationalIdOptionsOf('dohabank'), invalid],
    ['2841234567', nationalIdOptionsOf('dohabank'), invalid],
    ['A123456(7)', nationalIdOptionsOf('harbourbank'), null],
    ['AB123456(A)', nationalIdOptionsOf('harbourbank'), null],
    ['A123456(B)', nationalIdOptionsOf('harbourbank'), invalid],
    ['a123456(7)', nationalIdOptionsOf('harbourbank'), invalid],
    ['1234567', nationalIdOptionsOf('sabana'), null],
    ['0123456', nationalIdOptionsOf('sabana'), invalid],
    ['12.345.678', { nationalIdType: 'other', mask: '00.000.000' }, null],
    ['12345678', { nationalIdType: 'other', mask: '00.000.000' }, null],
    ['12.345.67', { nationalIdType: 'other', mask: '00.000.000' }, invalid],
    ['12-345-678', { nationalIdType: 'other', mask: '00.000.000' }, invalid],
    ['anything goes', { nationalIdType: 'other' }, null],
    ['X-1', { nationalIdType: 'other' }, null],
    ['38412345678', nationalIdOptionsOf('dohabank'), null],
    ['3841234567a', nationalIdOptionsOf('dohabank'), invalid],
    ['Z987654(0)', nationalIdOptionsOf('harbourbank'), null],
    ['A123456 (7)', nationalIdOptionsOf('harbourbank'), invalid],
    ['A1234567(7)', nationalIdOptionsOf('harbourbank'), invalid],
    ['999999', nationalIdOptionsOf('sabana'), null],
    ['12345', nationalIdOptionsOf('sabana'), invalid],
    ['12345678901', nationalIdOptionsOf('sabana'), invalid],
  ],
};

export const POSTAL_CODE_TABLE: GoldenTable = {
  title: '§5 postal code (mask, default 00000-000, and regexp)',
  rule: 'postalCode',
  rows: [
    // no settings: the default mask 00000-000
    ...valid(['01310-100', '01310100', '99999-999']),
    ...rejected(['01310-10', '0131-0100', '01310-1000', '01310 100', 'ABCDE-FGH', '01310-100 '], invalid),
    // bancosol: 00000-000 and a regexp
    ...valid(['20040-020', '20040020'], postalCodeOptionsOf('bancosol')),
    ...rejected(['2004-0020'], invalid, postalCodeOptionsOf('bancosol')),
    // firstbank and eurobank: 00000
    ...valid(['10001'], postalCodeOptionsOf('firstbank')),
    ...rejected(['1000', '100011', '10001-1234', '1000a'], invalid, postalCodeOptionsOf('firstbank')),
    ...valid(['10115'], postalCodeOptionsOf('eurobank')),
    // northbank: A0A 0A0
    ...valid(['H3B 1K9', 'h3b1k9', 'K1A 0B1'], postalCodeOptionsOf('northbank')),
    ...rejected(['H3B1K', '3HB 1K9', 'H3B-1K9', 'H3B 1K99'], invalid, postalCodeOptionsOf('northbank')),
    // A regexp alone (UK postcodes, as an author may write it), no default mask
    ...valid(['SW1A 1AA', 'M1 1AE', 'EC1A1BB'], UK_POSTCODE_REGEXP_ONLY),
    ...rejected(['12345', 'SW1A-1AA'], invalid, UK_POSTCODE_REGEXP_ONLY),
    // sabana: 000000, no regexp
    ...valid(['110111'], postalCodeOptionsOf('sabana')),
    ...rejected(['11011'], invalid, postalCodeOptionsOf('sabana')),
  ],
};

const adult: SchemaRuleOptions = { minAge: 18 };
const teen: SchemaRuleOptions = { minAge: 16 };

export const DOB_TABLE: GoldenTable = {
  title: '§5 date of birth (YYYY-MM-DD parts; every error key; min age on 2025-06-15)',
  rule: 'dob',
  rows: [
    ...valid(['1990-05-17', '1990-5-7', '2000-02-29', '1996-02-29', '1904-02-29', '1900-01-01', '2000-12-31'], adult),
    ['2007-06-15', adult, null], // 18 exactly today
    ['2007-06-14', adult, null],
    ['2009-06-15', teen, null], // 16 exactly today
    ['2009-06-15', none, null], // the default minimum age is 16
    // the stored value does not depend on the display order
    ['1990-05-17', { ...adult, dateFormat: 'MM-DD-YYYY' }, null],
    ['1990-05-17', { ...adult, dateFormat: 'DD/MM/YYYY' }, null],
    ['1990-05-17', { ...adult, dateFormat: 'DD.MM.YYYY' }, null],
    ...rejected(['1990--05', '-05-17', '1990-05-', '--17', '1990--', '-05-'], incomplete, adult),
    ...rejected(
      [
        '1990-02-30',
        '1990-04-31',
        '1990-13-01',
        '1990-00-10',
        '1990-01-00',
        '1900-02-29', // 1900 is no leap year
        '2023-02-29',
        '90-05-17',
        '1990-005-17',
        '1990-05-1a',
        'abcd-ef-gh',
        '１９９０-05-17',
        '1990/05/17',
        '1990-05-17-01',
        '2030-01-01', // in the future
        '2025-06-16', // tomorrow
      ],
      unreadable,
      adult,
    ),
    ...rejected(['1899-12-31', '1850-06-01', '0001-01-01'], tooOld, adult),
    ...rejected(['2007-06-16', '2008-02-29', '2025-06-15', '2010-01-01'], tooYoung(18), adult),
    ...rejected(['2009-06-16', '2010-01-01'], tooYoung(16), teen),
    ['2010-01-01', none, tooYoung(16)],
  ],
};

const standalone: SchemaRuleOptions = { standalone: true };

export const CARD_NUMBER_TABLE: GoldenTable = {
  title: '§5 card number (16 digits, starts with 4, groups of four, Luhn, max input 19)',
  rule: 'cardNumber',
  rows: [
    ...valid([
      '4111111111111111',
      '4111 1111 1111 1111',
      '4012 8888 8888 1881',
      '4222222222222220',
      '4500 0000 0000 0007',
      '4761 7390 0001 0011',
      '4987654321012349',
      '4000 0000 0000 0002',
      '4556737581439004',
      '41 111111 1111 1111', // spaces are ignored
      '4111111111111111 ',
    ]),
    ...valid(['4111 1111 1111 1111', '4556 7375 8143 9004'], standalone),
    ['4111  1111 1111 1111', { maxLength: 25 }, null], // a longer configured input, spaces ignored
    ...rejected(
      [
        '4111111111111112', // Luhn
        '4111 1111 1111 1112',
        '5555555555554444', // Luhn-valid, not a 4
        '0000000000000000',
        '378282246310005', // 15 digits
        '411111111111111',
        '41111111111111113', // 17 digits
        '4111-1111-1111-1111',
        '4111 1111 1111 111a',
        '4111  1111 1111 1111', // 20 characters
        ' 4111 1111 1111 1111 ',
      ],
      invalid,
    ),
    ...rejected(['4111111111111111', '4111 1111 11111111', '4111 1111 1111 1111 ', '41 111111 1111 1111'], invalid, standalone),
    ['4111 1111 1111 1111', { maxLength: 16 }, invalid],
  ],
};

export const GOLDEN_TABLES: readonly GoldenTable[] = [
  NAME_TABLE,
  ADDRESS_PART_TABLE,
  EMAIL_TABLE,
  PASSWORD_TABLE,
  BIN_TABLE,
  PHONE_TABLE,
  CPF_TABLE,
  SSN_TABLE,
  OTHER_NATIONAL_ID_TABLE,
  POSTAL_CODE_TABLE,
  DOB_TABLE,
  CARD_NUMBER_TABLE,
];

/**
 * ADR 0005 "Characters": what no field holds, by name. The C0 and C1 controls, DEL and lone
 * surrogates are refused everywhere (the gateway refuses them in every string it is sent); the
 * hidden formatting in every field with a rule. Exported for the gateway's tests.
 */
export const CONTROL_CHARACTERS: ReadonlyArray<readonly [name: string, character: string]> = [
  ['NUL', '\u0000'],
  ['start of heading', '\u0001'],
  ['tab', '\t'],
  ['line feed', '\n'],
  ['carriage return', '\r'],
  ['escape', '\u001B'],
  ['unit separator', '\u001F'],
  ['DEL', '\u007F'],
  ['C1 padding character', '\u0080'],
  ['C1 next line', '\u0085'],
  ['C1 application program command', '\u009F'],
  ['lone high surrogate', '\uD800'],
  ['lone low surrogate', '\uDFFF'],
];

export const HIDDEN_FORMATTING_CHARACTERS: ReadonlyArray<readonly [name: string, character: string]> = [
  ['left-to-right embedding', '\u202A'],
  ['right-to-left override', '\u202E'],
  ['left-to-right isolate', '\u2066'],
  ['pop directional isolate', '\u2069'],
  ['zero width space', '\u200B'],
  ['word joiner', '\u2060'],
  ['invisible separator', '\u2063'],
  ['byte order mark', '\uFEFF'],
  ['line separator', '\u2028'],
  ['paragraph separator', '\u2029'],
  ['interlinear annotation anchor', '\uFFF9'],
  ['noncharacter U+FFFF', '\uFFFF'],
];

/** Unusual characters that real names and addresses need, so they stay allowed. */
export const ALLOWED_UNUSUAL_TEXT: ReadonlyArray<readonly [name: string, text: string]> = [
  ['zero width non-joiner (Persian)', 'می\u200Cخواهم'],
  ['zero width joiner (Devanagari)', 'क्\u200Dष'],
  ['emoji with zero width joiners', 'Ana 👩\u200D💻'],
  ['right-to-left mark', 'سارة\u200F'],
  ['left-to-right mark', '\u200EAna'],
  ['Arabic letter mark', 'علي\u061C'],
  ['soft hyphen', 'Hoch\u00ADhaus'],
  ['a character outside the BMP (a surrogate pair)', '𝒜na'],
  ['no-break space', 'Ana\u00A0Maria'],
];

/** SPEC §5 generic inputs: `[value, required, expected]` for the required rule alone. */
export const REQUIRED_TABLE: ReadonlyArray<readonly [value: unknown, required: boolean, expected: FieldError | null]> = [
  ['', true, { key: 'required' }],
  ['   ', true, { key: 'required' }],
  [undefined, true, { key: 'required' }],
  [null, true, { key: 'required' }],
  [false, true, { key: 'required' }], // unticked checkbox
  [[], true, { key: 'required' }], // empty multi-select
  ['', false, null],
  [undefined, false, null],
  [false, false, null],
  ['x', true, null],
  [true, true, null],
  ['en_us', true, null], // a chosen option
  [['email'], true, null],
  [0, true, null],
];

/** The origin every return-URL row is checked against. */
export const RETURN_URL_ORIGIN = 'https://portal.example';

/** SPEC §5 "Return URLs must contain a {{locale}}/ segment"; ADR 0005 "Return URLs": never off the site's origin. */
export const RETURN_URL_TABLE: ReadonlyArray<readonly [value: string, valid: boolean]> = [
  ['/en_us/account/profile', true],
  ['/firstbank/en_us/account/login', true],
  ['https://portal.example/en_us/account/profile', true],
  ['HTTPS://PORTAL.EXAMPLE/en_us/account/', true],
  ['/pt_br/account/edit-pan?selectedCause=42', true],
  ['/en_us/account/profile#cards', true],
  ['/en_us/', true],
  ['/issuer/zh_hk/account/cashback-statement', true],
  ['/en_us/account/search?q=caf%C3%A9', true],
  ['/en_us/account/search?q=%E2%82%AC', true], // encoded non-ASCII text is fine
  ['/en_us/account/profile?x=1&y=2', true],
  // other hosts and origins
  ['//evil.example/en_us/', false],
  ['///evil.example/en_us/', false],
  ['/\\evil.example/en_us/', false],
  ['\\\\evil.example\\en_us\\', false],
  ['https://evil.example/en_us/', false],
  ['http://portal.example/en_us/', false],
  ['https://portal.example.evil.example/en_us/', false],
  ['https://portal.example@evil.example/en_us/', false],
  ['https://user:pass@portal.example/en_us/', false],
  ['https://portal.example:8443/en_us/', false],
  ['https:evil.example/en_us/', false],
  ['https:/evil.example/en_us/', false],
  ['https://portal.example', false],
  ['／／evil.example/en_us/', false],
  // schemes
  ['javascript:alert(1)//en_us/', false],
  ['JaVaScRiPt:alert(document.domain)', false],
  ['javascript://portal.example/%0Aalert(1)//en_us/', false],
  ['data:text/html,<script>alert(1)</script>', false],
  // encoded tricks
  ['/%2F%2Fevil.example/en_us/', false],
  ['%2F%2Fevil.example/en_us/', false],
  ['/%5Cevil.example/en_us/', false],
  ['/%252F%252Fevil.example/en_us/', false],
  ['/en_us/%252525252F%252525252Fevil', false], // however deep the nesting
  ['/en_us/%0d%0aLocation:%20https://evil.example', false],
  ['/en_us/%09/evil', false],
  ['/en_us/%3Cscript%3Ealert(1)%3C/script%3E', false],
  ['/en_us/%2e%2e/%2e%2e/evil', false],
  // whitespace and control characters
  ['/en_us/\t/evil', false],
  [' /en_us/', false],
  ['/en_us/ profile', false],
  ['\n//evil.example/en_us/', false],
  ['/en_us/\u2028', false],
  ['/en_us/\u0000', false],
  // relative paths and tags
  ['/en_us/../../evil.example/', false],
  ['en_us/account/profile', false],
  ['./en_us/', false],
  ['/en_us/<script>alert(1)</script>', false],
  // no locale segment
  ['/account/profile', false],
  ['/EN_US/account', false],
  ['/en_us', false],
  ['/xen_us/account', false],
  ['/?next=/en_us/', false],
  ['', false],
  [`/en_us/${'a'.repeat(2100)}`, false],
];

/** SPEC §5 "params must not contain tags, URLs or relative paths". */
export const QUERY_PARAM_TABLE: ReadonlyArray<readonly [value: string, valid: boolean]> = [
  ['42', true],
  ['save-the-children', true],
  ['Save the Children', true],
  ['café', true],
  ['a_b', true],
  ['100%', true],
  ['en_us', true],
  ['abc123', true],
  ['x=y', true],
  ['São Paulo', true],
  ['A&B', true],
  ['<script>alert(1)</script>', false],
  ['<img src=x onerror=alert(1)>', false],
  ['<!-- x -->', false],
  ['http://evil.example', false],
  ['https://evil.example', false],
  ['HTTPS://evil.example', false],
  ['//evil.example', false],
  ['a://b', false],
  ['javascript:alert(1)', false],
  ['vbscript:msgbox(1)', false],
  ['data:text/html,x', false],
  ['./x', false],
  ['../../etc/passwd', false],
  ['%2F%2Fevil.example', false],
  ['%3Cscript%3E', false],
  ['%252F%252Fevil.example', false],
  ['a\\b', false],
  ['line\nbreak', false],
  ['java%0Ascript:alert(1)', false],
  ['a'.repeat(2049), false],
];

/** Every fixture's `date_format` (and the default) with the display order it gives. */
export const DATE_FORMAT_ORDERS: ReadonlyArray<readonly [dateFormat: string, order: readonly string[], separator: string]> = [
  ['YYYY-MM-DD', ['yyyy', 'mm', 'dd'], '-'],
  ['MM-DD-YYYY', ['mm', 'dd', 'yyyy'], '-'],
  ['DD-MM-YYYY', ['dd', 'mm', 'yyyy'], '-'],
  ['DD/MM/YYYY', ['dd', 'mm', 'yyyy'], '/'],
  ['MM/DD/YYYY', ['mm', 'dd', 'yyyy'], '/'],
  ['DD.MM.YYYY', ['dd', 'mm', 'yyyy'], '.'],
  ['YYYY/DD/MM', ['yyyy', 'dd', 'mm'], '/'],
];
