import type { ContentTexts } from '../api/content-api';
import { fillPlaceholders, type TextValues } from '../../widgets/form-engine/form-texts';

/**
 * A content text by key, with `{{name}}` and `{name}` placeholders both filled (SPEC §7 content,
 * §8 placeholders). A missing key answers the fallback so a screen never shows a raw key.
 */
export function textOf(texts: ContentTexts | undefined, key: string, fallback: string, values: TextValues = {}): string {
  return fillPlaceholders(texts?.[key] ?? fallback, values);
}
