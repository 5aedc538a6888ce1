/**
 * Site regexps (`phone_regexp`, `national_id_regexp`, `postal_code_regexp`, SPEC §3) arrive as
 * strings from the site configuration. They are compiled once per distinct string, because the
 * validators run per keystroke and per request, and a string that does not compile counts as "no
 * regexp" (fixtures are checked at start, so this only guards the run time). `new RegExp` is not
 * `eval`: it is allowed under the app's CSP without unsafe-eval.
 */

const compiled = new Map<string, RegExp | null>();
/** Sites are few; the bound only keeps a misbehaving caller from growing the cache without end. */
const CACHE_LIMIT = 256;

export function compileSiteRegExp(source: unknown): RegExp | null {
  if (typeof source !== 'string' || source === '') return null;
  const cached = compiled.get(source);
  if (cached !== undefined) return cached;
  let regexp: RegExp | null;
  try {
    regexp = new RegExp(source); // no flags: no `g`/`y`, so `test` keeps no state between calls
  } catch {
    regexp = null;
  }
  if (compiled.size >= CACHE_LIMIT) compiled.clear();
  compiled.set(source, regexp);
  return regexp;
}

/** True when any of the candidate forms of a value (as typed, formatted, bare) matches. */
export function matchesAny(regexp: RegExp, candidates: readonly string[]): boolean {
  return candidates.some((candidate) => regexp.test(candidate));
}
