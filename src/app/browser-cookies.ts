/** Reading and expiring the cookies JavaScript can see (the SESSION cookie is httpOnly: not one of them). */
export interface CookieJar {
  get(name: string): string | undefined;
  set(name: string, value: string, expires: Date): void;
  remove(name: string): void;
}

/** The page's cookies; `document` is read on each call, so importing this outside a browser is safe. */
export function documentCookieJar(): CookieJar {
  return {
    get(name) {
      for (const pair of document.cookie.split(';')) {
        const separator = pair.indexOf('=');
        if (separator > 0 && pair.slice(0, separator).trim() === name) return decodeURIComponent(pair.slice(separator + 1).trim());
      }
      return undefined;
    },
    set(name, value, expires) {
      document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Expires=${expires.toUTCString()}; SameSite=Lax`;
    },
    remove(name) {
      document.cookie = `${name}=; Path=/; Expires=${new Date(0).toUTCString()}; SameSite=Lax`;
    },
  };
}
