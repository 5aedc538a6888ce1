import type { ContentTexts } from '../api/content-api';
import { formatNumberValues, selectCountedText } from '../../schemas/locales/counted-text';
import { fillPlaceholders, type TextValues } from '../../widgets/form-engine/form-texts';

/** The language of a text shown before the page knows its locale: the default locale's (SPEC §9 en_us). */
const DEFAULT_LANGUAGE_TAG = 'en-US';

/**
 * A content text by key, with `{{name}}` and `{name}` placeholders both filled (SPEC §7 content,
 * §8 placeholders). A counted text shows the form for `values.count` in the page's language, and
 * numbers are written as that language writes them (ADR 0013 "Counted texts"). A missing key
 * answers the fallback template so a screen never shows a raw key.
 */
export function textOf(texts: ContentTexts | undefined, key: string, fallback: string, values: TextValues = {}, languageTag = DEFAULT_LANGUAGE_TAG): string {
  const template = selectCountedText((name) => texts?.[name], key, values, languageTag) ?? fallback;
  return fillPlaceholders(template, formatNumberValues(values, languageTag));
}
