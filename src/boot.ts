import { SERVER_PAGE_DATA_ID } from '../schemas/pages/server-page';

/**
 * The page's one script tag (ADR 0024). A page the server rendered is already the screen: it paints first, and only
 * then is the app's code fetched and run (module scripts would otherwise run before that paint). A bare page (the
 * dev server, a route the browser renders) starts the app at once. In a hidden tab no frame comes; the app starts anyway.
 */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 250);
  });
}

/** A new task: what comes next runs after the browser has had its turn (input, paint). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

if (document.getElementById(SERVER_PAGE_DATA_ID) !== null) {
  await afterFirstPaint();
  // The app's modules are run in a few tasks rather than one: a module graph runs in the task that imports it, and the
  // whole app at once held the page for half a second at 4x CPU (README "Benchmark" total blocking time).
  await import('react-dom/client');
  await nextTask();
  await import('./store');
  await nextTask();
}
await import('./main');
