import { selectCountedText } from '../../schemas/locales/counted-text';
import { localeToLanguageTag } from '../../schemas/locales/locale-table';
import type { TextValues } from '../../widgets/form-engine/form-texts';
import { useSiteLocation } from '../site/use-site-location';
import { DEFAULT_TEXTS, type ShellContentGroup } from './default-texts';
import { textOf } from './texts';
import { useContentTexts } from './use-content-texts';

export type TextLookup = (key: string, values?: TextValues) => string;

/**
 * A lookup into one content group: the site's text, else the bundled en_us text, else '' (never a
 * raw key); counted texts and numbers in the page's language (ADR 0013 "Counted texts").
 */
export function useText(group: ShellContentGroup): TextLookup {
  const texts = useContentTexts(group);
  const languageTag = localeToLanguageTag(useSiteLocation().locale);
  return (key, values = {}) => textOf(texts, key, selectCountedText((name) => DEFAULT_TEXTS[group][name], key, values, languageTag) ?? '', values, languageTag);
}
