import { Fragment, type ReactNode } from 'react';
import { valueDirection } from '../../schemas/locales/bidi-isolates';
import type { TextLookup, TextValues } from '../form-engine/form-texts';
import { Ltr } from './Ltr';

/** Marks a value's place in the filled text: a private-use character no content text holds. */
const MARK = '\uE000';

/**
 * A content text with each text value isolated where it stands (schemas/locales/bidi-isolates.ts): a masked number,
 * a code or a date in digits as `<Ltr>` (left to right, on one line), a value with letters as `<bdi>` (its own
 * direction). The text reads the same as `lookup(key, values)` (screen readers, copy and paste, tests by text); only
 * the order on screen is kept. A number value stays with the lookup, which chooses the counted form and writes the
 * number in the page's digits (ADR 0013 "Counted texts"): a lone number needs no isolate.
 */
export function isolatedText(lookup: TextLookup, key: string, values: TextValues): ReactNode {
  const marked = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, typeof value === 'number' ? value : `${MARK}${name}${MARK}`]));
  const parts = lookup(key, marked).split(MARK);
  return parts.map((part, index) => {
    // Odd parts are the names of the values between two marks.
    if (index % 2 === 0) return part === '' ? null : <Fragment key={index}>{part}</Fragment>;
    const value = String(values[part] ?? '');
    if (value === '') return null;
    return valueDirection(value) === 'ltr' ? <Ltr key={index}>{value}</Ltr> : <bdi key={index}>{value}</bdi>;
  });
}
