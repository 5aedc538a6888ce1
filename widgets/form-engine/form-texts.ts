// Named imports: the build keeps only these groups of the en_us file, not the mails' texts.
import { common, form, optins } from '../../fixtures/content/en_us.json';
import { formatNumberValues, selectCountedText } from '../../schemas/locales/counted-text';

/**
 * The texts a form shows, as one flat map. Keys of the content's `form` group are used as they
 * are (`label.first_name`, `required`, `passwordRule.digit`); keys of every other group carry the
 * group's name (`optins.email`, `common.button.submit`). That is how the translator writes its
 * label keys (`label.dob`, `optins.title`), so a uiSchema key is looked up with no translation.
 */
export type FormTexts = Readonly<Record<string, string>>;

/** Content as the content service answers it: texts by group (SPEC §7 content). */
export type ContentGroups = Readonly<Record<string, Readonly<Record<string, string>> | undefined>>;

/** Placeholder values of a text: `{{count}}` and `{count}` are both filled (SPEC §7, §8). */
export type TextValues = Readonly<Record<string, string | number>>;

/** A text by key, never a raw key: content, else the bundled default, else a readable key. */
export type TextLookup = (key: string, values?: TextValues) => string;

const FORM_GROUP = 'form';

/** Merges content groups into the flat map a form reads (see `FormTexts`). */
export function formTextsFromContent(groups: ContentGroups): FormTexts {
  const texts: Record<string, string> = {};
  for (const [group, entries] of Object.entries(groups)) {
    if (!entries) continue;
    for (const [key, text] of Object.entries(entries)) texts[group === FORM_GROUP ? key : `${group}.${key}`] = text;
  }
  return texts;
}

/** SPEC §7 "failure uses bundled default texts": the en_us content. */
export const DEFAULT_FORM_TEXTS: FormTexts = formTextsFromContent({ form, optins, common });

function ownText(texts: FormTexts, key: string): string | undefined {
  return Object.hasOwn(texts, key) ? texts[key] : undefined;
}

/** The text for `key` from the site's content or the bundled defaults; `undefined` when neither has it. */
export function findText(texts: FormTexts, key: string): string | undefined {
  return ownText(texts, key) ?? ownText(DEFAULT_FORM_TEXTS, key);
}

/** The last segment of a key, made readable ("label.first_name" gives "First name"): a last resort, never a raw key on screen. */
export function readableKey(key: string): string {
  const words = (key.split('.').pop() ?? key)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A placeholder in either form content uses: `{{name}}` (§3 `updateAssetUrl` with `{{id}}`) or `{name}` (§3, §8 `{product}`). */
const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}|(?<!\{)\{\s*([A-Za-z0-9_]+)\s*\}(?!\})/g;

/** Every placeholder written as `{{name}}`, the one form the app fills; `{product}` and `{{ product }}` both become `{{product}}`. */
export function normalisePlaceholders(template: string): string {
  return template.replace(PLACEHOLDER, (_match, double: string | undefined, single: string | undefined) => `{{${double ?? single}}}`);
}

/** Fills the placeholders `values` names; one it does not name stays as the content wrote it, so a missing value is visible. */
export function fillPlaceholders(template: string, values: TextValues = {}): string {
  return template.replace(PLACEHOLDER, (match, double: string | undefined, single: string | undefined) => {
    const name = (double ?? single) as string;
    return Object.hasOwn(values, name) ? String(values[name]) : match;
  });
}

/**
 * The lookup a form's widgets use: a counted text in the form of `values.count` and every number
 * written as the page's language writes numbers (ADR 0013 "Counted texts"), placeholders filled.
 */
export function textLookup(texts: FormTexts, languageTag: string): TextLookup {
  return (key, values = {}) =>
    fillPlaceholders(selectCountedText((name) => findText(texts, name), key, values, languageTag) ?? readableKey(key), formatNumberValues(values, languageTag));
}
