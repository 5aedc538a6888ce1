import { readFile, rm } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { launchChromium, screenshotOpenPages } from './support/browser';

// keep-failure-screenshots.ts calls this after every failing browser test: what it keeps must be there to look at.
it("keeps a PNG of every page still open in the file's browsers, and nothing once they are closed", async () => {
  const browser = await launchChromium();
  const first = await browser.newPage();
  await first.setContent('<h1>first page</h1>');
  const second = await browser.newPage();
  await second.setContent('<h1>second page</h1>');

  const written = await screenshotOpenPages('failure-screenshots probe: two pages');
  try {
    expect(written).toHaveLength(2);
    for (const path of written) {
      expect(path).toMatch(/\/test-output\/failures\/failure-screenshots-probe-two-pages-\d\.png$/);
      expect((await readFile(path)).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    }
  } finally {
    await browser.close();
    await Promise.all(written.map((path) => rm(path, { force: true })));
  }
  expect(await screenshotOpenPages('failure-screenshots probe: closed')).toEqual([]);
});
