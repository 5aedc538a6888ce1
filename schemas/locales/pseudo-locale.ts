/**
 * The pseudo-locale (ADR 0013 "Pseudo-locale"): every content text accented, 40 % longer
 * and wrapped in ⟦ ⟧, so a person or a browser test sees at a glance which text came from content
 * (SPEC §7) and which layout breaks when a translation runs longer. Placeholders (`{x}`, `{{x}}`),
 * markup tags and entities pass through untouched, so the text still fills and sanitises as its
 * source does. Pure, shared by the gateway (which serves it) and the tests.
 */

/** A code of the `xx_yy` shape reserved for pseudo-locales (CLDR's `en-XA`, "accented English"). */
export const PSEUDO_LOCALE = 'en_xa';
/** The marker around every pseudo-localised text. */
export const PSEUDO_OPEN = '⟦';
export const PSEUDO_CLOSE = '⟧';
/** What lengthens a text; not a letter, so the length check of a test never reads it as a word. */
export const PSEUDO_PADDING = '·';
/** Translations commonly run this much longer than English. */
export const PSEUDO_GROWTH = 0.4;

const ACCENTED: Readonly<Record<string, string>> = {
  a: 'å',
  b: 'ƀ',
  c: 'ç',
  d: 'ð',
  e: 'é',
  f: 'ƒ',
  g: 'ĝ',
  h: 'ĥ',
  i: 'î',
  j: 'ĵ',
  k: 'ķ',
  l: 'ļ',
  m: 'ɱ',
  n: 'ñ',
  o: 'ö',
  p: 'þ',
  q: 'ǫ',
  r: 'ŕ',
  s: 'š',
  t: 'ţ',
  u: 'û',
  v: 'ṽ',
  w: 'ŵ',
  x: 'ẋ',
  y: 'ý',
  z: 'ž',
  A: 'Å',
  B: 'Ɓ',
  C: 'Ç',
  D: 'Ð',
  E: 'É',
  F: 'Ƒ',
  G: 'Ĝ',
  H: 'Ĥ',
  I: 'Î',
  J: 'Ĵ',
  K: 'Ķ',
  L: 'Ļ',
  M: 'Ṁ',
  N: 'Ñ',
  O: 'Ö',
  P: 'Þ',
  Q: 'Ǫ',
  R: 'Ŕ',
  S: 'Š',
  T: 'Ţ',
  U: 'Û',
  V: 'Ṽ',
  W: 'Ŵ',
  X: 'Ẋ',
  Y: 'Ý',
  Z: 'Ž',
};

/** What must reach the app as written: `{{ name }}`, `{name}`, a markup tag, an entity. */
const PROTECTED = /\{\{\s*[A-Za-z0-9_]+\s*\}\}|\{\s*[A-Za-z0-9_]+\s*\}|<[^<>]*>|&(?:[A-Za-z]+|#[0-9]+|#x[0-9A-Fa-f]+);/g;

export function isPseudoLocale(locale: string): boolean {
  return locale === PSEUDO_LOCALE;
}

/** Whether a text is already pseudo-localised (so a second pass leaves it alone). */
export function isPseudoLocalised(text: string): boolean {
  return text.startsWith(PSEUDO_OPEN) && text.endsWith(PSEUDO_CLOSE);
}

/** "Sign in" → "⟦Šîĝñ îñ ··⟧"; "Hi {{name}}" keeps `{{name}}`; an empty text stays empty (nothing to show). */
export function pseudoLocalise(text: string): string {
  if (text.trim() === '' || isPseudoLocalised(text)) return text;
  let accented = '';
  let readable = 0;
  let last = 0;
  for (const match of text.matchAll(PROTECTED)) {
    const plain = text.slice(last, match.index);
    accented += accent(plain) + match[0];
    readable += plain.length;
    last = match.index + match[0].length;
  }
  const tail = text.slice(last);
  accented += accent(tail);
  readable += tail.length;
  const growth = Math.max(1, Math.ceil(readable * PSEUDO_GROWTH));
  return `${PSEUDO_OPEN}${accented} ${PSEUDO_PADDING.repeat(Math.max(1, growth - 1))}${PSEUDO_CLOSE}`;
}

function accent(plain: string): string {
  return [...plain].map((char) => ACCENTED[char] ?? char).join('');
}

/** A content group with every text pseudo-localised. */
export function pseudoLocaliseTexts(texts: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(texts).map(([key, text]) => [key, pseudoLocalise(text)]));
}
