import type { ContentTexts } from '../api/content-api';

/**
 * A content text by key, with `{{name}}` and `{name}` placeholders both filled (SPEC §7 content,
 * §8 placeholders). A missing key answers the fallback so a screen never shows a raw key.
 */
export function textOf(texts: ContentTexts | undefined, key: string, fallback: string, values: Record<string, string> = {}): string {
  const template = texts?.[key] ?? fallback;
  return template.replace(/\{\{?\s*([A-Za-z0-9_]+)\s*\}?\}/g, (match, name: string) => values[name] ?? match);
}
