import { createContext, useContext, useEffect, useLayoutEffect } from 'react';
import { SITE_BRAND_ATTRIBUTE, type DocumentHead } from '../../schemas/pages/server-page';

/**
 * What a screen would read from `window` while rendering, given by the server renderer instead
 * (ADR 0024): the page's origin and host, and where the root screen writes the document head.
 * In the browser there is no provider and `window.location` answers.
 */
export interface ServerPageContextValue {
  origin: string;
  host: string;
  head: Partial<DocumentHead>;
}

const ServerPageContext = createContext<ServerPageContextValue | null>(null);
export const ServerPageProvider = ServerPageContext.Provider;

export function usePageOrigin(): { origin: string; host: string } {
  const server = useContext(ServerPageContext);
  return server ?? { origin: window.location.origin, host: window.location.host };
}

/**
 * SPEC §2 root screen: `lang`, `dir`, the title, the theme and the site on the document. The server
 * renderer collects them for the page it sends; in the browser they are applied after each render.
 */
export function useDocumentHead(head: DocumentHead): void {
  const server = useContext(ServerPageContext);
  if (server !== null) Object.assign(server.head, head);
  const { lang, dir, title, theme, siteId, stylesheet } = head;
  useEffect(() => {
    document.documentElement.lang = lang;
    document.documentElement.dir = dir;
  }, [lang, dir]);
  useEffect(() => {
    document.title = title;
  }, [title]);
  useEffect(() => {
    document.body.dataset.theme = theme;
    document.body.dataset.siteId = siteId;
  }, [theme, siteId]);
  // Before paint: the brand's colours never show late. What the server put in the head (its text written in, or
  // a link when it could not) is taken over, not doubled.
  useLayoutEffect(() => {
    if (stylesheet === null) return undefined;
    const fromServer = [...document.head.querySelectorAll(`[${SITE_BRAND_ATTRIBUTE}]`)].find(
      (candidate) => (candidate.getAttribute('href') ?? candidate.getAttribute(SITE_BRAND_ATTRIBUTE)) === stylesheet,
    );
    const element = fromServer ?? brandStylesheetLink(stylesheet);
    if (!element.isConnected) document.head.append(element);
    return () => element.remove();
  }, [stylesheet]);
}

function brandStylesheetLink(href: string): HTMLLinkElement {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  link.setAttribute(SITE_BRAND_ATTRIBUTE, '');
  return link;
}
