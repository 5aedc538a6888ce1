import type { ReactNode } from 'react';

/**
 * Stands in for `markdown-to-jsx/react` inside @rjsf/core (vite.config.ts alias). RJSF parses
 * Markdown only for `ui:enableMarkdownInDescription/Help`, which the translator never emits, and
 * for developer-error and file-upload texts the portal does not use; texts are shown as plain text
 * instead. Saves the parser's weight on every form route (docs/decisions/0006).
 */
export function Markdown({ children }: { children?: ReactNode; options?: unknown }) {
  return <>{children}</>;
}
