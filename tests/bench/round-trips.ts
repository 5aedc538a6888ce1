/**
 * Sequential round trips before first contentful paint (README "Benchmark"; DESIGN "First paint": the goal is
 * one, the HTML): for the largest site's sign-in and registration and a signed-in card holder's profile, served
 * by the production build and a real gateway, next to the plain RJSF page of the same form and the static HTML
 * page (reference-pages.ts).
 *
 * Method: Debian's Chromium through playwright-core, a fresh context (empty cache) per page. The Chrome DevTools
 * Protocol reports every request's start and end (Network.requestWillBeSent, loadingFinished) and the frame's
 * first contentful paint (Page.lifecycleEvent 'firstContentfulPaint') on one clock; the page's own
 * PerformanceObserver 'paint' entry is what the run waits for, and its time is printed. Of the page's
 * requests (not the browser's favicon) that ended before that paint, a request is one round trip after
 * another when it started after the other ended (its start waited for that answer) or when the other is its
 * initiator (the document or script that asked for it: a script discovered while the HTML still streams in
 * still needed the HTML). A request's depth is 1 + the largest depth of the requests it comes after; the
 * page's figure is the largest depth, and the chain that gives it is printed under the table. Requests that
 * merely happened to start after another ended count too, so the figure is an upper bound of the paint's
 * own chain; at one (the HTML alone) the two agree. A page that also paints with JavaScript off (checked once, in a
 * context of its own) does not wait for its scripts to paint, so its scripts are left out of its chain: on loopback a
 * deferred module script and its imports can end before the paint without the paint having waited for them. Images
 * are never on a chain: no paint waits for one (a logo that arrived first still did not hold the text). Each page is
 * measured RUNS times, the pages taking turns; the figure is the median.
 */
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type CDPSession } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/browser';
import { accountPageUrl, median, ratio, type BenchNote, type BenchRow } from './bench-table';
import { demoUserWithoutPasscode, signIn } from './demo-sign-in';
import type { ReferencePages } from './reference-pages';

const RUNS = 3;
const TARGET = 1;

interface RequestSpan {
  url: string;
  /** CDP's resource type: Document, Stylesheet, Script, Fetch, ... */
  type: string;
  /** CDP monotonic seconds. */
  start: number;
  end?: number;
  /** The URL of the document, stylesheet or script that asked for it. */
  initiator?: string;
}

interface CdpInitiator {
  url?: string;
  stack?: { callFrames: { url: string }[]; parent?: CdpInitiator['stack'] };
}

/** The first URL of an initiator: the parser's document, or the innermost script frame with a URL. */
function initiatorUrl(initiator: CdpInitiator): string | undefined {
  if (initiator.url) return initiator.url;
  for (let stack = initiator.stack; stack; stack = stack.parent) {
    const frame = stack.callFrames.find((candidate) => candidate.url !== '');
    if (frame) return frame.url;
  }
  return undefined;
}

/** Every request of the page's session, as CDP reports them; redirects are one span per hop. */
async function recordRequests(session: CDPSession): Promise<{ spans: RequestSpan[]; firstPaint: Promise<number> }> {
  const spans: RequestSpan[] = [];
  const open = new Map<string, RequestSpan>();
  session.on('Network.requestWillBeSent', (event) => {
    // The browser's own requests (type Other: the favicon) fill the tab, never the page's paint.
    if (event.type === 'Other') return;
    const previous = open.get(event.requestId);
    if (previous && event.redirectResponse) previous.end = event.timestamp;
    const initiator = initiatorUrl(event.initiator);
    const span: RequestSpan = { url: event.request.url, type: event.type ?? 'Other', start: event.timestamp, ...(initiator ? { initiator } : {}) };
    spans.push(span);
    open.set(event.requestId, span);
  });
  session.on('Network.loadingFinished', (event) => {
    const span = open.get(event.requestId);
    if (span) span.end = event.timestamp;
  });
  const firstPaint = new Promise<number>((resolve) => {
    session.on('Page.lifecycleEvent', (event) => {
      if (event.name === 'firstContentfulPaint') resolve(event.timestamp);
    });
  });
  await session.send('Network.enable');
  await session.send('Page.enable');
  await session.send('Page.setLifecycleEventsEnabled', { enabled: true });
  return { spans, firstPaint };
}

/** The longest chain of round trips among the requests that ended by `paintedAt`, first request first. */
function longestChain(spans: readonly RequestSpan[], paintedAt: number, paintWaitsForScripts: boolean): RequestSpan[] {
  const done = spans
    .filter(
      (span) =>
        !span.url.startsWith('data:') &&
        span.end !== undefined &&
        span.end <= paintedAt &&
        span.type !== 'Image' &&
        (paintWaitsForScripts || span.type !== 'Script'),
    )
    .sort((a, b) => a.start - b.start);
  const chains = new Map<RequestSpan, RequestSpan[]>();
  for (const span of done) {
    const initiator = done.find((other) => other !== span && other.url === span.initiator && other.start <= span.start);
    const before = done.filter((other) => other !== span && ((other.end ?? Infinity) <= span.start || other === initiator));
    const longest = before.map((other) => chains.get(other) ?? []).reduce((best, chain) => (chain.length > best.length ? chain : best), []);
    chains.set(span, [...longest, span]);
  }
  return [...chains.values()].reduce<RequestSpan[]>((best, chain) => (chain.length > best.length ? chain : best), []);
}

const PAINT_TIMEOUT_MS = 30_000;
const EVENTS_SETTLE_MS = 250;

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`round trips: no ${what} within ${PAINT_TIMEOUT_MS / 1000} s`)), PAINT_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

interface PageMeasure {
  roundTrips: number;
  firstPaintMs: number;
  chain: string[];
}

/** Whether `url` has a first contentful paint with JavaScript off: then its paint never waited for a script. */
async function paintsWithoutScripts(browser: Browser, measured: MeasuredPage): Promise<boolean> {
  const { url } = measured;
  const context = await measured.context(browser, { javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    const session = await context.newCDPSession(page);
    const { firstPaint } = await recordRequests(session);
    await page.goto(url, { waitUntil: 'load' });
    return await withTimeout(firstPaint, `the first contentful paint of ${url} without JavaScript`).then(
      () => true,
      () => false,
    );
  } finally {
    await context.close();
  }
}

/** Opens `url` in a fresh page of `context` and measures it. */
async function measure(context: BrowserContext, url: string, paintWaitsForScripts: boolean): Promise<PageMeasure> {
  const page = await context.newPage();
  try {
    const session = await context.newCDPSession(page);
    const { spans, firstPaint } = await recordRequests(session);
    await page.goto(url, { waitUntil: 'commit' });
    const firstPaintMs = await withTimeout(
      page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            new PerformanceObserver((list) => {
              const entry = list.getEntriesByName('first-contentful-paint')[0];
              if (entry) resolve(entry.startTime);
            }).observe({ type: 'paint', buffered: true });
          }),
      ),
      `the first contentful paint of ${url}`,
    );
    const paintedAt = await withTimeout(firstPaint, `the first contentful paint of ${url}`);
    // The network events of requests that ended before the paint come from another process than the paint's.
    await page.waitForTimeout(EVENTS_SETTLE_MS);
    const chain = longestChain(spans, paintedAt, paintWaitsForScripts);
    if (chain.length === 0) throw new Error(`round trips: no request of ${url} ended before its first contentful paint`);
    return {
      roundTrips: chain.length,
      firstPaintMs,
      chain: chain.map((span) => {
        const { origin, pathname } = new URL(span.url);
        return origin === new URL(url).origin ? pathname : `${origin}${pathname}`;
      }),
    };
  } finally {
    await page.close();
  }
}

interface MeasuredPage {
  label: string;
  url: string;
  /** A context of its own for each run; the signed-in one holds a fresh session. */
  context: (browser: Browser, options?: BrowserContextOptions) => Promise<BrowserContext>;
  runs: PageMeasure[];
  /** Whether its first paint needs its scripts (it shows nothing with JavaScript off). */
  paintWaitsForScripts?: boolean;
}

const fresh = (browser: Browser, options?: BrowserContextOptions) => browser.newContext(options);

function summary(page: MeasuredPage): { roundTrips: number; firstPaintMs: number; chain: string[] } {
  const roundTrips = median(page.runs.map((run) => run.roundTrips));
  const run = page.runs.find((candidate) => candidate.roundTrips === roundTrips);
  return { roundTrips, firstPaintMs: median(page.runs.map((each) => each.firstPaintMs)), chain: run?.chain ?? [] };
}

export async function roundTripRows(
  baseUrl: string,
  siteId: string,
  locale: string,
  reference: ReferencePages,
): Promise<{ rows: BenchRow[]; notes: BenchNote[] }> {
  const holder = demoUserWithoutPasscode();
  const signedIn = async (browser: Browser, options?: BrowserContextOptions) => {
    const context = await browser.newContext(options);
    const { cookies } = await signIn(baseUrl, holder);
    await context.addCookies(cookies.map((cookie) => ({ ...cookie, url: baseUrl })));
    return context;
  };
  const page = (label: string, url: string, context = fresh): MeasuredPage => ({ label, url, context, runs: [] });
  const plainLogin = page('plain RJSF login page', `${reference.baseUrl}/login`);
  const plainRegistration = page('plain RJSF registration page', `${reference.baseUrl}/registration`);
  const staticPage = page('static HTML page', `${reference.baseUrl}/static`);
  const login = page(`${siteId} login`, accountPageUrl(baseUrl, siteId, locale, 'login'));
  const registration = page(`${siteId} registration`, accountPageUrl(baseUrl, siteId, locale, 'registration'));
  const profile = page(`${holder.siteId} profile, signed in`, accountPageUrl(baseUrl, holder.siteId, locale, 'profile'), signedIn);
  const ours = [
    { page: login, reference: plainLogin },
    { page: registration, reference: plainRegistration },
    { page: profile, reference: plainLogin },
  ];
  // Not launchChromium: its CSP watch adds a script to every page, which the measured pages must not carry.
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  try {
    for (const measured of [login, plainLogin, registration, plainRegistration, profile, staticPage])
      measured.paintWaitsForScripts = !(await paintsWithoutScripts(browser, measured));
    for (let run = 0; run < RUNS; run += 1) {
      for (const measured of [login, plainLogin, registration, plainRegistration, profile, staticPage]) {
        const context = await measured.context(browser);
        try {
          measured.runs.push(await measure(context, measured.url, measured.paintWaitsForScripts ?? true));
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
  }
  const staticFigure = summary(staticPage);
  const rows = ours.map(({ page: measured, reference: plain }): BenchRow => {
    const figure = summary(measured);
    const floor = summary(plain);
    return {
      figure: `sequential round trips before first contentful paint, ${measured.label} (median of ${RUNS}; first paint ${Math.round(figure.firstPaintMs)} ms)`,
      value: String(figure.roundTrips),
      reference: `${plain.label}: ${floor.roundTrips} (first paint ${Math.round(floor.firstPaintMs)} ms); ${staticPage.label}: ${staticFigure.roundTrips}`,
      ratio: ratio(figure.roundTrips, floor.roundTrips),
      target: `${TARGET} (the HTML)`,
      met: figure.roundTrips <= TARGET,
    };
  });
  const notes = [login, registration, profile, plainLogin, plainRegistration, staticPage].map((measured) => ({
    title: `Round trips before first contentful paint, ${measured.label} (the median run's chain${measured.paintWaitsForScripts === false ? '; it paints with JavaScript off, so its scripts are not on it' : ''})`,
    lines: summary(measured).chain,
  }));
  return { rows, notes };
}
