import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** WCAG 2.2 level A and AA, as axe-core tags them (DESIGN "every screen passes axe-core with no violations"). */
const WCAG_22_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Runs axe-core on the page as it is now and fails with one line per offending element (rule id,
 * impact, selector, help) when any WCAG 2.2 A/AA rule is violated. The page's own strict CSP does
 * not stop axe: Playwright evaluates the injected script through the DevTools protocol, outside
 * the page's script-src (the tests also assert no CSP violation is reported while it runs).
 * Needs a page of `browser.newContext()`: axe finishes its run in a second page of that context.
 */
export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_22_AA_TAGS).analyze();
  if (results.violations.length === 0) return;
  const lines = results.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `  ${violation.id} [${violation.impact ?? 'unknown'}] ${node.target.join(' ')}: ${violation.help}${node.failureSummary ? ` (${node.failureSummary.replace(/\s+/g, ' ').trim()})` : ''}`,
    ),
  );
  throw new Error(`axe found ${lines.length} WCAG 2.2 A/AA violation(s) on "${label}" (${page.url()}):\n${lines.join('\n')}`);
}
