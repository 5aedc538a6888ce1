import { APP_MODULE_PRELOADS_PER_TASK, SERVER_PAGE_DATA_ID } from '../schemas/pages/server-page';

/** How long the app waits for a first paint the browser never reports (a hidden tab). */
const FIRST_PAINT_WAIT_MS = 1_000;

/**
 * The page's one script tag (ADR 0024). A page the server rendered is already the screen: it paints first, and only
 * then is the app's code fetched and run (module scripts would otherwise run before that paint). A bare page (the
 * dev server, a route the browser renders) starts the app at once.
 *
 * "After" is after the browser reports the first contentful paint: a frame callback can come before that paint
 * reaches the screen, and a request started then is one the paint seems to wait for. In a hidden tab, or a browser
 * that reports no paint, the app starts after a second anyway.
 */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, FIRST_PAINT_WAIT_MS);
    try {
      new PerformanceObserver((entries, observer) => {
        if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
        observer.disconnect();
        resolve();
      }).observe({ type: 'paint', buffered: true });
    } catch {
      requestAnimationFrame(() => setTimeout(resolve, 0));
    }
  });
}

/** A new task: what comes next runs after the browser has had its turn (input, paint). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The app's module files, written here by the build (vite.config.ts `appModulesList` writes a JSON array over the
 * JSON string of APP_MODULES_PLACEHOLDER below). Read through JSON.parse, so no minifier folds it as the constant it
 * is before that. Unbuilt (the dev server), it stays the placeholder: no list.
 */
function appModuleFiles(): string[] {
  try {
    const files: unknown = JSON.parse('"__PORTAL_APP_MODULES__"');
    return Array.isArray(files) ? files.filter((file): file is string => typeof file === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The app's module files preloaded a few per task. Vite's own preloading adds them all in the task of the first
 * `import()`, which held the page for about 100 ms at 4x CPU; the imports below find them already asked for.
 */
async function preloadAppModules(): Promise<void> {
  const files = appModuleFiles();
  for (let start = 0; start < files.length; start += APP_MODULE_PRELOADS_PER_TASK) {
    for (const href of files.slice(start, start + APP_MODULE_PRELOADS_PER_TASK)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    await nextTask();
  }
}

/**
 * What the browser loads on first use, each loaded here in a task of its own while the app's files download, rather
 * than inside the app's first tasks: the number data (ICU) of the page's language, about 20 ms (80 at 4x CPU) that
 * fell in the middle of the hydration, whose texts write numbers (schemas/locales/counted-text.ts); and the site's
 * local storage, which the app's first module reads (the §4 check), a wait on the browser's own process the first
 * time.
 */
function loadNumberData(): void {
  try {
    new Intl.NumberFormat(document.documentElement.lang || undefined).format(0);
  } catch {
    // A language tag Intl refuses: nothing to load ahead, and the app starts all the same.
  }
}

function loadLocalStorage(): void {
  try {
    window.localStorage.key(0);
  } catch {
    // Storage the browser refuses this site: the app reads it the same way and gets the same refusal.
  }
}

if (document.getElementById(SERVER_PAGE_DATA_ID) !== null) {
  await afterFirstPaint();
  await preloadAppModules();
  loadNumberData();
  await nextTask();
  loadLocalStorage();
  await nextTask();
  // The app's modules are run in a few tasks rather than one: a module graph runs in the task that imports it, and the
  // whole app at once held the page for half a second at 4x CPU (README "Benchmark" total blocking time).
  await import('react-dom/client');
  await nextTask();
  // Modules of the app's own whose evaluation brings one library each, never a package's whole entry: an `import()` of
  // a package keeps every export it has (no tree-shaking), which cost every page 36 KB gzip.
  await import('./app/server-page-state'); // Redux Toolkit
  await nextTask();
  await import('./store'); // RTK Query, axios, the gateway API
  await nextTask();
  await import('./site/use-site-location'); // react-router
  await nextTask();
}
await import('./main');
