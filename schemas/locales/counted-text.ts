import { numberFormat } from './intl-format';

/**
 * Counted texts (SPEC §1 "multi-language"; ADR 0013 "Counted texts"). A text that shows a number of
 * things is written once per plural form of the language, as keys `<key>.<form>` where form is one of
 * CLDR's categories, `other` always there: `error.otpInvalid.one`, `error.otpInvalid.other`, and for
 * Arabic also `.zero`, `.two`, `.few`, `.many`. The form for a number is `Intl.PluralRules` of the
 * page's language; the number is the text's `{{count}}` value, and every number a text shows is
 * written as the page's language writes numbers, in the page's one digit system (`numberFormat` of
 * intl-format.ts: 1,234 and 3 in ar-QA, not ١٬٢٣٤ and ٣). Pure: used by the app's text lookups, and by the
 * content check of the gateway.
 */

/** CLDR plural categories, in CLDR's order. */
export const PLURAL_FORMS = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
export type PluralForm = (typeof PLURAL_FORMS)[number];

/** The form every counted text must have: what any number falls back to. */
export const REQUIRED_PLURAL_FORM: PluralForm = 'other';

/** The value that picks a counted text's form. */
export const COUNT_VALUE = 'count';

export type CountedTextValues = Readonly<Record<string, string | number>>;

const FORM_SUFFIX = new RegExp(`\\.(${PLURAL_FORMS.join('|')})$`);

/**
 * The template to show for `key` with these values: for a counted text (the lookup has
 * `<key>.other` and the values a numeric `count`), the form `Intl.PluralRules(languageTag)` selects
 * for the count, else its `other` form; otherwise the text of `key` itself. Undefined when neither
 * exists, so the caller's own fallback applies.
 */
export function selectCountedText(find: (key: string) => string | undefined, key: string, values: CountedTextValues, languageTag: string): string | undefined {
  const count = values[COUNT_VALUE];
  const other = find(`${key}.${REQUIRED_PLURAL_FORM}`);
  if (typeof count === 'number' && other !== undefined) return find(`${key}.${pluralRules(languageTag).select(count)}`) ?? other;
  return find(key) ?? other;
}

/**
 * Every number among the values written as the page's language writes numbers; texts stay as they are. The
 * language's number format is made only when there is a number: making the first one costs about 30 ms of the
 * browser's start (ICU data), and most texts have no number (README "Benchmark", ADR 0024).
 */
export function formatNumberValues(values: CountedTextValues, languageTag: string): Record<string, string> {
  const entries = Object.entries(values);
  if (!entries.some(([, value]) => typeof value === 'number')) return values as Record<string, string>;
  const format = numberFormatOf(languageTag);
  return Object.fromEntries(entries.map(([name, value]) => [name, typeof value === 'number' ? format.format(value) : value]));
}

/** `attemptsLeft.few` -> { base: 'attemptsLeft', form: 'few' }; undefined for a key that names no plural form. */
export function pluralFormOf(key: string): { base: string; form: PluralForm } | undefined {
  const match = FORM_SUFFIX.exec(key);
  return match ? { base: key.slice(0, match.index), form: match[1] as PluralForm } : undefined;
}

/** A counted text in a content group that cannot be shown right in its language (for the content check). */
export interface CountedTextMistake {
  key: string;
  expected: string;
  actual: string;
}

/**
 * The counted texts of one content group a language cannot use: one without its `other` form (a
 * number whose form is missing would show nothing), and a form the language never selects (`.few`
 * in German: a translation nobody would ever see, most likely meant for another key).
 */
export function countedTextMistakes(texts: Readonly<Record<string, string>>, languageTag: string): CountedTextMistake[] {
  const categories = new Set<string>(pluralRules(languageTag).resolvedOptions().pluralCategories);
  const forms = new Map<string, PluralForm[]>();
  for (const key of Object.keys(texts)) {
    const plural = pluralFormOf(key);
    if (plural) forms.set(plural.base, [...(forms.get(plural.base) ?? []), plural.form]);
  }
  const mistakes: CountedTextMistake[] = [];
  for (const [base, written] of forms) {
    if (!written.includes(REQUIRED_PLURAL_FORM)) {
      mistakes.push({
        key: `${base}.${REQUIRED_PLURAL_FORM}`,
        expected: `the "${REQUIRED_PLURAL_FORM}" form every counted text needs`,
        actual: `only ${written.map((form) => `.${form}`).join(', ')}`,
      });
    }
    for (const form of written.filter((form) => !categories.has(form))) {
      mistakes.push({ key: `${base}.${form}`, expected: `a plural form of ${languageTag}: ${[...categories].join(', ')}`, actual: `.${form}` });
    }
  }
  return mistakes;
}

const pluralRulesByTag = new Map<string, Intl.PluralRules>();
function pluralRules(languageTag: string): Intl.PluralRules {
  let rules = pluralRulesByTag.get(languageTag);
  if (!rules) pluralRulesByTag.set(languageTag, (rules = new Intl.PluralRules(languageTag)));
  return rules;
}

const numberFormatByTag = new Map<string, Intl.NumberFormat>();
function numberFormatOf(languageTag: string): Intl.NumberFormat {
  let format = numberFormatByTag.get(languageTag);
  if (!format) numberFormatByTag.set(languageTag, (format = numberFormat(languageTag)));
  return format;
}
