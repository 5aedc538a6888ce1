import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Runs in the page. Every number, masked value, card number, code, date in digits and e-mail shown in a block that
 * reads right to left must sit in its own isolate (schemas/locales/bidi-isolates.ts: `<bdi>`, an element with `dir`,
 * or CSS `unicode-bidi: isolate`/`plaintext`, or between the Unicode isolates U+2066–U+2069) below that block;
 * otherwise the block's direction reorders it ("*** *** 3456" shows "3456 *** ***", "•••• 3707" shows
 * "3707 ••••"). Answers each value found bare, with the element it is in, so one run names everything left.
 * A lone short number ("3 attempts", in the page's digits) reads the same either way and is not a value here.
 */
export function findUnisolatedValues(): string[] {
  const VALUE = new RegExp(
    [
      // An e-mail address.
      String.raw`[^\s@<>()]+@(?:[\p{L}\p{N}-]+\.)+\p{L}{2,}`,
      // A masked number or card: two or more mask characters, with the digits they hide or keep.
      String.raw`[*•X]{2,}(?:[\s-]*[*•X0-9]+)*`,
      // Digits in groups: a card number, a phone, a date or a time in digits.
      String.raw`[0-9]+(?:[\s./:-]+[0-9]+)+`,
      // A code: four or more digits.
      String.raw`[0-9]{4,}`,
    ].join('|'),
    'gu',
  );
  const ISOLATE_MARK = /[\u2066-\u2069]/u;
  const isInline = (element: Element): boolean => ['inline', 'contents'].includes(getComputedStyle(element).display);
  const isolates = (element: Element): boolean =>
    element.tagName === 'BDI' || element.hasAttribute('dir') || ['isolate', 'isolate-override', 'plaintext'].includes(getComputedStyle(element).unicodeBidi);
  const describe = (element: Element): string => {
    const classes = typeof element.className === 'string' && element.className.trim() !== '' ? `.${element.className.trim().split(/\s+/).join('.')}` : '';
    return `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${classes}`;
  };
  const found: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    const text = node.textContent ?? '';
    if (!parent || parent.closest('script, style, noscript, template, [hidden]') || !parent.checkVisibility({ checkVisibilityCSS: true })) continue;
    const values = [...text.matchAll(VALUE)];
    if (values.length === 0) continue;
    // The inline run up to its block: an isolate anywhere in it keeps the value's own order.
    let isolated = false;
    let block: Element = parent;
    for (let current: Element | null = parent; current; current = current.parentElement) {
      block = current;
      if (!isInline(current)) break;
      if (isolates(current)) {
        isolated = true;
        break;
      }
    }
    if (isolated || getComputedStyle(block).direction !== 'rtl') continue;
    // The block itself isolating with dir="ltr" reads left to right already (skipped above by its direction).
    for (const value of values) {
      const before = text.slice(0, value.index);
      const after = text.slice(value.index + value[0].length);
      // Between a first-strong, left-to-right or right-to-left isolate and its pop directional isolate.
      if (ISOLATE_MARK.test(before.slice(-1)) && ISOLATE_MARK.test(after.slice(0, 1))) continue;
      found.push(`${describe(block)} > ${describe(parent)}: "${value[0]}" in "${text.trim().slice(0, 80)}"`);
    }
  }
  return found;
}

/** SPEC §2 "Page language follows the locale" on a right-to-left page: no value of `screen` is shown bare. */
export async function expectValuesIsolated(page: Page, screen: string): Promise<void> {
  const bare = await page.evaluate(findUnisolatedValues);
  expect(bare, `${screen}: values not isolated in right-to-left text:\n${bare.join('\n')}\n`).toEqual([]);
}
