import { contentFallbackChain } from '../../schemas/locales/content-fallback';
import { localeDirection, localeToLanguageTag } from '../../schemas/locales/locale-table';
import type { ContentBundle } from '../site-files/load-fixtures';
import { escapeHtml } from '../http/html-text';
import { DEFAULT_LOCALE } from '../locale';

/** A text of the content group `sso` in `locale`, down the language fallback chain (ADR 0013); every key is in en_us. */
export function ssoText(content: ReadonlyMap<string, ContentBundle>, locale: string, key: string, values: Readonly<Record<string, string>> = {}): string {
  const chain = contentFallbackChain(locale, content.keys());
  const template = chain.map((file) => content.get(file)?.sso?.[key]).find((text) => text !== undefined) ?? content.get(DEFAULT_LOCALE)?.sso?.[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/**
 * A small page the gateway answers itself where a browser lands on it rather than on the app (docs/decisions/0028-sso-saml.md):
 * the assertion consumer's refusal, and the test identity provider's people list. `body` is HTML already escaped.
 */
export function plainPage(locale: string, title: string, body: string): string {
  const lang = localeToLanguageTag(locale);
  return `<!doctype html>
<html lang="${escapeHtml(lang)}" dir="${localeDirection(locale)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body><main><h1>${escapeHtml(title)}</h1>
${body}
</main></body>
</html>
`;
}
