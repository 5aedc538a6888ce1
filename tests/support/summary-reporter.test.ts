import type { TestModule } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import SummaryReporter from './summary-reporter';

type State = 'passed' | 'failed' | 'skipped' | 'pending';

/** The parts of Vitest's TestModule the reporter reads. */
function fakeModule(project: string, moduleState: 'passed' | 'failed' | 'skipped', testStates: State[]): TestModule {
  const tests = testStates.map((state) => ({ result: () => ({ state }) }));
  return { project: { name: project }, state: () => moduleState, children: { allTests: () => tests.values() } } as unknown as TestModule;
}

function run(steps: (reporter: SummaryReporter, tick: (ms: number) => void) => TestModule[]): string {
  let now = 0;
  let printed = '';
  const reporter = new SummaryReporter({
    now: () => now,
    write: (text) => {
      printed += text;
    },
  });
  const modules = steps(reporter, (ms) => {
    now += ms;
  });
  reporter.onTestRunEnd(modules);
  return printed;
}

describe('summary reporter', () => {
  it('counts a file whose beforeAll threw (its tests skipped) as one failure', () => {
    const printed = run(() => [fakeModule('e2e', 'passed', ['passed', 'passed']), fakeModule('e2e', 'failed', ['skipped', 'skipped', 'skipped'])]);
    expect(printed.endsWith('\nvitest: 2 passed, 1 failed, 3 skipped\n')).toBe(true);
  });

  it('counts a failed file with no tests as one failure, and a file with failed tests by its tests only', () => {
    const printed = run(() => [fakeModule('unit', 'failed', []), fakeModule('unit', 'failed', ['failed', 'passed', 'failed'])]);
    expect(printed.endsWith('\nvitest: 1 passed, 3 failed, 0 skipped\n')).toBe(true);
  });

  it('prints each project wall time, first file start to last file end, before the closing line', () => {
    const printed = run((reporter, tick) => {
      const unitA = fakeModule('unit', 'passed', ['passed']);
      const unitB = fakeModule('unit', 'passed', ['passed']);
      const e2e = fakeModule('e2e', 'passed', ['passed']);
      reporter.onTestModuleStart(unitA);
      reporter.onTestModuleStart(unitB);
      tick(1_500);
      reporter.onTestModuleEnd(unitB);
      reporter.onTestModuleStart(e2e);
      tick(2_000);
      reporter.onTestModuleEnd(unitA);
      tick(60_250);
      reporter.onTestModuleEnd(e2e);
      return [unitA, unitB, e2e];
    });
    expect(printed).toBe('\nvitest: wall time unit 3.5 s, e2e 62.3 s\nvitest: 3 passed, 0 failed, 0 skipped\n');
  });
});
