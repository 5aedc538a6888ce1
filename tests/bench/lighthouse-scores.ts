/**
 * Lighthouse 12 (README "Benchmark"): mobile preset (Lighthouse's default: a Moto G class viewport and
 * simulated slow 4G with 4x CPU slowdown) on the largest site's sign-in and registration routes served by the
 * production build and a real gateway, next to the same forms drawn by a plain RJSF page and to a static HTML
 * sign-in page (reference-pages.ts). Each page is measured RUNS times, the pages taking turns (ours, its
 * reference, ours, ...) so a busy moment of the machine hits both alike; every figure is the median of its runs.
 * Debian's Chromium is started by chrome-launcher (Lighthouse's own launcher), never downloaded.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_PATH } from '../e2e/support/browser';
import { accountPageUrl, median, ratio, type BenchNote, type BenchRow } from './bench-table';
import type { ReferencePages } from './reference-pages';

const RUNS = 3;
const PERFORMANCE_TARGET = 95;
const TBT_TARGET_MS = 200;
/** First contentful paint within this factor of the static HTML page's. */
const FCP_FACTOR_TARGET = 1.2;
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
type Category = (typeof CATEGORIES)[number];
type Metric = 'first-contentful-paint' | 'largest-contentful-paint' | 'total-blocking-time';

interface LighthouseAudit {
  id: string;
  score: number | null;
  title: string;
  displayValue?: string;
}

/** One Lighthouse run of one page: its category scores (0-100), metrics (ms) and the audits that cost points. */
interface PageRun {
  scores: Record<Category, number>;
  metrics: Record<Metric, number>;
  failing: Record<Category, string[]>;
}

async function lighthouseRun(url: string, port: number): Promise<PageRun> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse could not load ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const score = (category: Category) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
  const metric = (id: Metric) => {
    const value = lhr.audits[id]?.numericValue;
    if (value === undefined) throw new Error(`Lighthouse measured no ${id} on ${url}`);
    return value;
  };
  // The audits that cost points, heaviest first (weight, then how far each is from a pass).
  const failing = (category: Category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .map((ref): { weight: number; audit: LighthouseAudit | undefined } => ({ weight: ref.weight, audit: lhr.audits[ref.id] }))
      .filter(
        (entry): entry is { weight: number; audit: LighthouseAudit } =>
          entry.audit !== undefined && entry.audit.score !== null && entry.audit.score < 1 && entry.weight > 0,
      )
      .sort((a, b) => b.weight * (1 - (b.audit.score ?? 0)) - a.weight * (1 - (a.audit.score ?? 0)))
      .slice(0, 5)
      .map(({ audit }) => `${audit.id} (score ${(audit.score ?? 0).toFixed(2)}${audit.displayValue ? `, ${audit.displayValue}` : ''}): ${audit.title}`);
  return {
    scores: { performance: score('performance'), accessibility: score('accessibility'), 'best-practices': score('best-practices') },
    metrics: {
      'first-contentful-paint': metric('first-contentful-paint'),
      'largest-contentful-paint': metric('largest-contentful-paint'),
      'total-blocking-time': metric('total-blocking-time'),
    },
    failing: { performance: failing('performance'), accessibility: failing('accessibility'), 'best-practices': failing('best-practices') },
  };
}

/** The runs of one page, with the median of each figure. */
class PageRuns {
  readonly runs: PageRun[] = [];
  score(category: Category): number {
    return median(this.runs.map((run) => run.scores[category]));
  }
  metric(id: Metric): number {
    return median(this.runs.map((run) => run.metrics[id]));
  }
  /** The audits that cost points in the run whose score is the median. */
  failing(category: Category): string[] {
    return this.runs.find((run) => run.scores[category] === this.score(category))?.failing[category] ?? [];
  }
}

const ms = (value: number) => `${Math.round(value)} ms`;

function routeRows(route: string, siteId: string, ours: PageRuns, plain: PageRuns, staticPage: PageRuns): BenchRow[] {
  const where = `${siteId} ${route}, Lighthouse mobile, median of ${RUNS}`;
  const plainPage = `plain RJSF ${route} page`;
  const scoreRow = (category: Category, label: string, target: number): BenchRow => ({
    figure: `${label} score, ${where}`,
    value: String(ours.score(category)),
    reference: `${plainPage}: ${plain.score(category)}`,
    ratio: ratio(ours.score(category), plain.score(category)),
    target: target === 100 ? '100' : `>= ${target}`,
    met: ours.score(category) >= target,
  });
  const metricRow = (id: Metric, label: string): BenchRow => ({
    figure: `${label}, ${where}`,
    value: ms(ours.metric(id)),
    reference: `${plainPage}: ${ms(plain.metric(id))}`,
    ratio: ratio(ours.metric(id), plain.metric(id)),
    target: '',
    met: null,
  });
  const fcp = ours.metric('first-contentful-paint');
  const staticFcp = staticPage.metric('first-contentful-paint');
  const tbt = ours.metric('total-blocking-time');
  return [
    scoreRow('performance', 'performance', PERFORMANCE_TARGET),
    metricRow('first-contentful-paint', 'first contentful paint'),
    {
      figure: `first contentful paint against the static HTML page, ${where}`,
      value: ms(fcp),
      reference: `static sign-in page, no script: ${ms(staticFcp)}`,
      ratio: ratio(fcp, staticFcp),
      target: `<= ${FCP_FACTOR_TARGET}x the static page`,
      met: fcp <= staticFcp * FCP_FACTOR_TARGET,
    },
    metricRow('largest-contentful-paint', 'largest contentful paint'),
    { ...metricRow('total-blocking-time', 'total blocking time'), target: `<= ${TBT_TARGET_MS} ms`, met: tbt <= TBT_TARGET_MS },
    scoreRow('accessibility', 'accessibility', 100),
    scoreRow('best-practices', 'best practices', 100),
  ];
}

export async function lighthouseRows(
  baseUrl: string,
  siteId: string,
  locale: string,
  reference: ReferencePages,
): Promise<{ rows: BenchRow[]; notes: BenchNote[] }> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  const routes = ['login', 'registration'] as const;
  const pages = routes.map((route) => ({
    route,
    ours: { url: accountPageUrl(baseUrl, siteId, locale, route), runs: new PageRuns() },
    plain: { url: `${reference.baseUrl}/${route}`, runs: new PageRuns() },
  }));
  const staticPage = { url: `${reference.baseUrl}/static`, runs: new PageRuns() };
  try {
    for (let run = 0; run < RUNS; run += 1) {
      for (const page of [...pages.flatMap(({ ours, plain }) => [ours, plain]), staticPage]) {
        page.runs.runs.push(await lighthouseRun(page.url, chrome.port));
      }
    }
  } finally {
    chrome.kill();
  }
  const rows = pages.flatMap(({ route, ours, plain }) => routeRows(route, siteId, ours.runs, plain.runs, staticPage.runs));
  const notes = pages.flatMap(({ route, ours }) =>
    CATEGORIES.filter((category) => ours.runs.score(category) < (category === 'performance' ? PERFORMANCE_TARGET : 100)).map((category) => ({
      title: `Lighthouse ${category} ${ours.runs.score(category)} on ${route} (the median run's costliest audits)`,
      lines: ours.runs.failing(category),
    })),
  );
  return { rows, notes };
}
