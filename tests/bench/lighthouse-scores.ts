/**
 * Lighthouse 12 (README "Benchmark"): mobile preset (Lighthouse's default: a Moto G class viewport and
 * simulated slow 4G with 4x CPU slowdown), performance, accessibility and best-practices, for the
 * largest site's sign-in and registration routes served by the production build and a real gateway.
 * Debian's Chromium is started by chrome-launcher (Lighthouse's own launcher), never downloaded.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_PATH } from '../e2e/support/browser';
import type { BenchNote, BenchRow } from './bench-table';

const CATEGORIES = [
  { id: 'performance', label: 'performance', target: 98 },
  { id: 'accessibility', label: 'accessibility', target: 100 },
  { id: 'best-practices', label: 'best practices', target: 100 },
] as const;

interface LighthouseAudit {
  id: string;
  score: number | null;
  title: string;
  displayValue?: string;
}

export async function lighthouseRows(baseUrl: string, siteId: string, locale: string): Promise<{ rows: BenchRow[]; notes: BenchNote[] }> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  const rows: BenchRow[] = [];
  const notes: BenchNote[] = [];
  try {
    for (const route of ['login', 'registration']) {
      const url = `${baseUrl}/${siteId}/${locale}/account/${route}`;
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES.map((category) => category.id) });
      if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
      const { lhr } = result;
      if (lhr.runtimeError) throw new Error(`Lighthouse could not load ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      const scores: string[] = [];
      let met = true;
      for (const category of CATEGORIES) {
        const found = lhr.categories[category.id];
        const score = Math.round((found?.score ?? 0) * 100);
        scores.push(String(score));
        if (score < category.target) {
          met = false;
          // The audits that cost points, heaviest first (weight, then how far each is from a pass).
          const failing = (found?.auditRefs ?? [])
            .map((ref): { weight: number; audit: LighthouseAudit | undefined } => ({ weight: ref.weight, audit: lhr.audits[ref.id] }))
            .filter(
              (entry): entry is { weight: number; audit: LighthouseAudit } =>
                entry.audit !== undefined && entry.audit.score !== null && entry.audit.score < 1 && entry.weight > 0,
            )
            .sort((a, b) => b.weight * (1 - (b.audit.score ?? 0)) - a.weight * (1 - (a.audit.score ?? 0)))
            .slice(0, 5);
          notes.push({
            title: `Lighthouse ${category.label} ${score} < ${category.target} on ${route}`,
            lines: failing.map(
              ({ audit }) => `${audit.id} (score ${(audit.score ?? 0).toFixed(2)}${audit.displayValue ? `, ${audit.displayValue}` : ''}): ${audit.title}`,
            ),
          });
        }
      }
      rows.push({
        figure: `Lighthouse mobile performance / accessibility / best practices, ${siteId} ${route}`,
        value: scores.join(' / '),
        target: `>= ${CATEGORIES.map((category) => category.target).join(' / ')}`,
        met,
      });
    }
  } finally {
    chrome.kill();
  }
  return { rows, notes };
}
