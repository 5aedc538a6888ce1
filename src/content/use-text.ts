import type { TextValues } from '../../widgets/form-engine/form-texts';
import { DEFAULT_TEXTS, type ShellContentGroup } from './default-texts';
import { textOf } from './texts';
import { useContentTexts } from './use-content-texts';

export type TextLookup = (key: string, values?: TextValues) => string;

/** A lookup into one content group: the site's text, else the bundled en_us text, else '' (never a raw key). */
export function useText(group: ShellContentGroup): TextLookup {
  const texts = useContentTexts(group);
  return (key, values) => textOf(texts, key, DEFAULT_TEXTS[group][key] ?? '', values);
}
