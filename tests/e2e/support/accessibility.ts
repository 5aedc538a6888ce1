import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';

/** WCAG 2.2 level A and AA, as axe-core tags them (DESIGN "every screen passes axe-core with no violations"). */
const WCAG_22_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** axe-core's minified build, read once per test file. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Only the violations are gathered: the passes and the inapplicable rules are nobody's evidence here. */
const RUN_OPTIONS: RunOptions = { runOnly: { type: 'tag', values: WCAG_22_AA_TAGS }, resultTypes: ['violations'] };

interface Offence {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string; summary: string }[];
}

/**
 * Runs axe-core on the page as it is now and fails with one line per offending element (rule id,
 * impact, selector, help) when any WCAG 2.2 A/AA rule is violated. The page's own strict CSP does
 * not stop axe: Playwright evaluates the script through the DevTools protocol, outside the page's
 * script-src (the tests also assert no CSP violation is reported while it runs). axe is put into a
 * document once and stays there while the app moves between its screens, so a walk through ten
 * screens pays for it once (ADR 0004: axe on every screen was most of the journey matrices' time).
 * The app has no frames, so the top document is the whole page.
 */
export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const offences = await page.evaluate(async (options) => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: RunOptions) => Promise<AxeResults> } }).axe;
    const results = await axe.run(document, options);
    return results.violations.map((violation): Offence => ({
      id: violation.id,
      impact: violation.impact ?? 'unknown',
      help: violation.help,
      nodes: violation.nodes.map((node) => ({ target: node.target.join(' '), summary: (node.failureSummary ?? '').replace(/\s+/g, ' ').trim() })),
    }));
  }, RUN_OPTIONS);
  if (offences.length === 0) return;
  const lines = offences.flatMap((offence) =>
    offence.nodes.map((node) => `  ${offence.id} [${offence.impact}] ${node.target}: ${offence.help}${node.summary ? ` (${node.summary})` : ''}`),
  );
  throw new Error(`axe found ${lines.length} WCAG 2.2 A/AA violation(s) on "${label}" (${page.url()}):\n${lines.join('\n')}`);
}
