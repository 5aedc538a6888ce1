/**
 * How a value set inside a sentence is isolated (UAX #9 "Explicit Directional Isolates", HTML `<bdi>`), so that on
 * a right-to-left page it keeps its own order and does not pull the words around it into its run. Without an
 * isolate an Arabic page shows the masked "*** *** 3456" of "…إلى *** *** 3456" as "3456 *** ***": digits and
 * neutral marks take the direction of the Arabic around them.
 *
 * A value without letters (a number, a masked number or card, a code, a date in digits) is always left to right;
 * a value with letters (an e-mail, a name) takes the direction of its first letter (`auto`), so an Arabic name
 * reads right to left and an e-mail left to right.
 */
export type ValueDirection = 'ltr' | 'auto';

const LETTER = /\p{L}/u;

export function valueDirection(value: string): ValueDirection {
  return LETTER.test(value) ? 'auto' : 'ltr';
}
