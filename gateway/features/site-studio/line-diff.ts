/** One line of a diff: kept, added (only in the new text) or removed (only in the file on disk). */
export interface DiffLine {
  kind: 'kept' | 'added' | 'removed';
  text: string;
}

const linesOf = (text: string): string[] => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));

/** The lines of `before` and `after` in order, by their longest common subsequence (site files are a few hundred lines). */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = linesOf(before);
  const b = linesOf(after);
  const width = b.length + 1;
  // common[i * width + j]: the longest common subsequence of a[i..] and b[j..].
  const common = new Array<number>((a.length + 1) * width).fill(0);
  const at = (i: number, j: number): number => common[i * width + j] ?? 0;
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) common[i * width + j] = a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const left = a[i];
    const right = b[j];
    if (left !== undefined && left === right) {
      lines.push({ kind: 'kept', text: left });
      i += 1;
      j += 1;
    } else if (right !== undefined && (left === undefined || at(i, j + 1) >= at(i + 1, j))) {
      lines.push({ kind: 'added', text: right });
      j += 1;
    } else {
      lines.push({ kind: 'removed', text: left ?? '' });
      i += 1;
    }
  }
  return lines;
}
