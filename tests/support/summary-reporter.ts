import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints closing lines in the plain form CI reads, after Vitest's own summary: the wall time of each
 * project ("vitest: wall time unit 81.2 s, e2e 612.4 s", from its first file's start to its last file's
 * end) and last "vitest: N passed, N failed, N skipped". Skipped tests are counted so a skipped leg is
 * visible. A file that failed with no failed test of its own (a beforeAll that threw, which skips the
 * file's tests; an import error; a file with no tests) counts as one failure, so such a run never reads
 * "0 failed".
 */
export default class SummaryReporter implements Reporter {
  readonly #now: () => number;
  readonly #write: (text: string) => void;
  /** Per project: when its first file started and its last file ended (ms). */
  readonly #spans = new Map<string, { start: number; end: number }>();

  /** Vitest passes its reporter options (none here); the clock and the output are for the reporter's own test. */
  constructor(options: { now?: () => number; write?: (text: string) => void } = {}) {
    this.#now = typeof options.now === 'function' ? options.now : () => performance.now();
    this.#write = typeof options.write === 'function' ? options.write : (text) => process.stdout.write(text);
  }

  onTestModuleStart(testModule: TestModule): void {
    const now = this.#now();
    const span = this.#spans.get(testModule.project.name);
    if (span === undefined) this.#spans.set(testModule.project.name, { start: now, end: now });
  }

  onTestModuleEnd(testModule: TestModule): void {
    const now = this.#now();
    const span = this.#spans.get(testModule.project.name);
    if (span === undefined) this.#spans.set(testModule.project.name, { start: now, end: now });
    else span.end = Math.max(span.end, now);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      let failedTests = 0;
      for (const testCase of testModule.children.allTests()) {
        const state = testCase.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failedTests += 1;
        else skipped += 1;
      }
      failed += testModule.state() === 'failed' && failedTests === 0 ? 1 : failedTests;
    }
    if (this.#spans.size > 0) {
      const times = [...this.#spans].map(([project, { start, end }]) => `${project || 'default'} ${((end - start) / 1000).toFixed(1)} s`);
      this.#write(`\nvitest: wall time ${times.join(', ')}`);
    }
    this.#write(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
