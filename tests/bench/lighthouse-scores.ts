/**
 * Lighthouse 12 (README "Benchmark"): mobile preset (Lighthouse's default: a Moto G class viewport and
 * simulated slow 4G with 4x CPU slowdown), performance, accessibility and best-practices, for the
 * largest site's sign-in and registration routes served by the production build and a real gateway.
 * Debian's Chromium is started by chrome-launcher (Lighthouse's own launcher), never downloaded.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/**
 * The reference: a sign-in form as one static HTML page with no script, served from this process, so its scores
 * show what Lighthouse gives on this machine, in this run, to a page that has nothing to load.
 */
const STATIC_SIGN_IN_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="Sign in to your rewards account"><title>Sign in</title></head><body><main><h1>Sign in</h1>
<p>Use the e-mail address and password of your rewards account.</p><form method="post"><label for="u">E-mail</label><input id="u" name="u" type="email" autocomplete="username">
<label for="p">Password</label><input id="p" name="p" type="password" autocomplete="current-password"><button type="submit">Sign in</button></form></main></body></html>`;

async function lighthouseScores(url: string, port: number) {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES.map((category) => category.id) });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse could not load ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  return lhr;
}

async function staticPageScores(port: number): Promise<string> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(STATIC_SIGN_IN_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const lhr = await lighthouseScores(`http://127.0.0.1:${String((server.address() as AddressInfo).port)}/`, port);
    return CATEGORIES.map((category) => String(Math.round((lhr.categories[category.id]?.score ?? 0) * 100))).join(' / ');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

export async function lighthouseRows(baseUrl: string, siteId: string, locale: string): Promise<{ rows: BenchRow[]; notes: BenchNote[] }> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  const rows: BenchRow[] = [];
  const notes: BenchNote[] = [];
  try {
    const reference = `a static sign-in page, no script: ${await staticPageScores(chrome.port)}`;
    for (const route of ['login', 'registration']) {
      const lhr = await lighthouseScores(`${baseUrl}/${siteId}/${locale}/account/${route}`, chrome.port);
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
        reference,
        target: `>= ${CATEGORIES.map((category) => category.target).join(' / ')}`,
        met,
      });
    }
  } finally {
    chrome.kill();
  }
  return { rows, notes };
}
