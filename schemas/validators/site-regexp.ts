/**
 * Site regexps (`phone_regexp`, `national_id_regexp`, `postal_code_regexp`, SPEC §3) arrive as
 * strings from the site configuration. They are compiled once per distinct string, because the
 * validators run per keystroke and per request, and a string that does not compile counts as "no
 * regexp" (fixtures are checked at start, so this only guards the run time). `new RegExp` is not
 * `eval`: it is allowed under the app's CSP without unsafe-eval.
 */
import { applyMask, unmask } from '../site-config/mask';

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

/**
 * ADR 0005 "Masks and regexps": a site regexp is met by the value as the person sees it (its bare
 * slot characters formatted through the field's mask) or by the bare value (what the masked widget
 * stores and sends), or by the value exactly as sent. Authors write `^\d{4}-\d{3}$` for `0000-000`
 * because that is what the field shows; older fixtures wrote the bare digits; both mean the same
 * field. Every masked validator (phone, national id, postal code) asks this one function, in the
 * browser and in the gateway. `bare` defaults to the mask's slot characters of `value`; the phone
 * passes its digits, which it reads without a mask too.
 */
export function meetsSiteRegExp(regexp: RegExp, value: string, mask: string | undefined, bare: string = mask ? unmask(mask, value) : value): boolean {
  const candidates = mask ? [value, bare, applyMask(mask, bare)] : [value, bare];
  return candidates.some((candidate) => regexp.test(candidate));
}
