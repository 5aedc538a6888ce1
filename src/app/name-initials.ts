/**
 * The initials the account menu shows: the first grapheme of each name, trimmed at both ends, so "  Zoë  " gives "Z"
 * and a name that starts with a letter and its combining accent, or an emoji, keeps it whole (Intl.Segmenter).
 */
export function nameInitials(...names: readonly (string | null | undefined)[]): string {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return names
    .map((name) => {
      const trimmed = (name ?? '').trim();
      return trimmed === '' ? '' : (segmenter.segment(trimmed)[Symbol.iterator]().next().value?.segment ?? '');
    })
    .join('');
}
