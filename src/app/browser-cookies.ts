/** Reading and expiring the cookies JavaScript can see (the SESSION cookie is httpOnly: not one of them). */
export interface CookieJar {
  get(name: string): string | undefined;
  set(name: string, value: string, expires: Date): void;
  remove(name: string): void;
}

/**
 * A cookie's value in `document.cookie` or a request's `Cookie` header (the server renderer's, ADR 0024): the first
 * pair of that name, URI-decoded, or as it is when it is not URI-encoded (someone else's cookie never breaks a page).
 */
export function cookieInHeader(header: string, name: string): string | undefined {
  for (const pair of header.split(';')) {
    const separator = pair.indexOf('=');
    if (separator <= 0 || pair.slice(0, separator).trim() !== name) continue;
    const raw = pair.slice(separator + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

/** The page's cookies; `document` is read on each call, so importing this outside a browser is safe. */
export function documentCookieJar(): CookieJar {
  return {
    get: (name) => cookieInHeader(document.cookie, name),
    set(name, value, expires) {
      document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Expires=${expires.toUTCString()}; SameSite=Lax`;
    },
    remove(name) {
      document.cookie = `${name}=; Path=/; Expires=${new Date(0).toUTCString()}; SameSite=Lax`;
    },
  };
}
