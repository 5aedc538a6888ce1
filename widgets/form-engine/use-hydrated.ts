import { useSyncExternalStore } from 'react';

const noChanges = () => () => undefined;

/**
 * False while the server renders a page and while the browser hydrates that page, true in every render after
 * (ADR 0024): what the server's markup cannot show (a DOM-sanitised text, a form that takes input) waits for it.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noChanges,
    () => true,
    () => false,
  );
}
