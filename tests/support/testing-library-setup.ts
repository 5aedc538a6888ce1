/**
 * `findBy…` and `waitFor` wait up to 5 s instead of Testing Library's 1 s: these machines are shared
 * and a busy one renders a lazy screen late. A wait is not a speed assertion (speed is `npm run bench`).
 * Only files that run in a DOM (jsdom) load Testing Library; gateway tests skip it.
 */
export async function configureTestingLibrary(): Promise<void> {
  if (typeof document === 'undefined') return;
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 5_000 });
}

await configureTestingLibrary();
