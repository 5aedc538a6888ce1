/** Where §7's tokens live (local storage in the browser, memory while the server renders a page). */
export interface TokenStorage {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
}

/** The page's local storage (§7 tokens, §9 otp_expiry); `window` is read on each call, so importing this outside a browser is safe. */
export function browserLocalStorage(): TokenStorage {
  return {
    get: (key) => window.localStorage.getItem(key),
    set: (key, value) => window.localStorage.setItem(key, value),
    remove: (key) => window.localStorage.removeItem(key),
  };
}
