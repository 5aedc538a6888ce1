import DOMPurify from 'dompurify';
import { useHydrated } from './use-hydrated';

/**
 * Content texts may carry a little markup (a link to the privacy policy, emphasis). It is sanitised
 * with DOMPurify before React puts it in the page (ADR 0013): only the tags and attributes
 * below survive, links only to http(s), mailto, tel or a path, and nothing that runs script (no
 * `<script>`, no event handlers, no `javascript:`). DOMPurify needs no eval, so the strict CSP holds.
 */
const ALLOWED_TAGS = ['a', 'b', 'strong', 'em', 'i', 'u', 'br', 'p', 'span', 'ul', 'ol', 'li'];
const ALLOWED_ATTR = ['href', 'target', 'rel', 'lang', 'dir'];
const SAFE_LINK = /^(?:https?:|mailto:|tel:|\/(?!\/)|#)/i;

let purifier: ReturnType<typeof DOMPurify> | null = null;

function contentPurifier(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  purifier = DOMPurify(window);
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName !== 'A') return;
    const href = node.getAttribute('href');
    if (href !== null && !SAFE_LINK.test(href.trim())) node.removeAttribute('href');
    // A link that opens a new tab never hands the portal's window to the page it opens.
    if (node.getAttribute('target') === '_blank') node.setAttribute('rel', 'noopener noreferrer');
    else node.removeAttribute('target');
  });
  return purifier;
}

/** Content HTML made safe to render: the allowed markup kept, everything else dropped. */
export function sanitiseContentHtml(html: string): string {
  return contentPurifier().sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOW_DATA_ATTR: false });
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** The words of content markup without its tags, as text React escapes: what a page shows before a DOM can sanitise. */
function contentHtmlText(html: string): string {
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (_entity, name: string) => ENTITIES[name] ?? '')
    .replace(/&#(\d{1,6});/g, (_entity, code: string) => String.fromCodePoint(Number(code)));
}

/** A content text that may carry markup, rendered sanitised. */
export function ContentHtml({ html, id, className }: { html: string; id?: string; className?: string }) {
  // DOMPurify needs a DOM, which the server renderer has not (ADR 0024): the server's page, and the browser's
  // hydration of it, show the text alone; the browser puts the sanitised markup in right after.
  const hasDom = useHydrated();
  if (!hasDom) {
    return (
      <p id={id} className={className}>
        {contentHtmlText(html)}
      </p>
    );
  }
  return <p id={id} className={className} dangerouslySetInnerHTML={{ __html: sanitiseContentHtml(html) }} />;
}
