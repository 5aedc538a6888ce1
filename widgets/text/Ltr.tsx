import type { ReactNode } from 'react';
import './ltr.css';

/**
 * A number, masked value, card number, code or e-mail shown on its own inside a page's text: isolated and left to
 * right (`<bdi dir="ltr">`), so on a right-to-left page "•••• 3707" is not read as "3707 ••••", and kept on one
 * line (`white-space: nowrap`, ltr.css), so a masked number never breaks between its groups. Text
 * that carries such a value inside a sentence is isolated by the text lookup instead (schemas/locales/bidi-isolates.ts).
 */
export function Ltr({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <bdi dir="ltr" className={className === undefined ? 'ltr-value' : `ltr-value ${className}`}>
      {children}
    </bdi>
  );
}
