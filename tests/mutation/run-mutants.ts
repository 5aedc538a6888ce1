/**
 * `npm run mutants`: a small scripted mutation run over MUTANTS (mutants.ts), outside `npm test`. Each
 * mutant's tests run once on the real code (they must pass), then the mutant is written into its source
 * file and they run again (Vitest, bail on the first failure); the file is put back before the next, also
 * on Ctrl-C. Prints one line per mutant and the score; exits non-zero when a mutant survives, no longer
 * matches the code, or its tests fail without it. `-- <id>…` runs only those mutants.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MUTANTS, type Mutant } from './mutants';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
type Outcome = 'killed' | 'survived' | 'stale' | 'baseline-failed';

/** The source as it was, while a mutant is in it: written back on exit, whatever ends the run. */
let pending: { path: string; original: string } | null = null;
const restore = () => {
  if (pending === null) return;
  writeFileSync(pending.path, pending.original);
  pending = null;
};
process.on('exit', restore);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    restore();
    process.exit(130);
  });
}

/** Runs the mutant's tests on the code as it is now; true when they pass. */
function testsPass(mutant: Mutant): boolean {
  const args = [
    'vitest',
    'run',
    '--project',
    mutant.project,
    '--bail',
    '1',
    '--reporter',
    'dot',
    ...(mutant.testNamePattern ? ['-t', mutant.testNamePattern] : []),
    ...mutant.tests,
  ];
  return spawnSync('npx', args, { cwd: REPO_ROOT, stdio: 'ignore', env: process.env }).status === 0;
}

/**
 * Killed only when the same tests pass on the real code: a failure that is not the mutant's (a broken
 * test, a file that moved) would otherwise count as a kill, and the score could not fall.
 */
function runMutant(mutant: Mutant): Outcome {
  const path = join(REPO_ROOT, mutant.file);
  const original = readFileSync(path, 'utf8');
  if (original.split(mutant.find).length !== 2) return 'stale';
  if (!testsPass(mutant)) return 'baseline-failed';
  pending = { path, original };
  writeFileSync(path, original.replace(mutant.find, mutant.replace));
  try {
    return testsPass(mutant) ? 'survived' : 'killed';
  } finally {
    restore();
  }
}

const only = process.argv.slice(2);
const chosen = only.length === 0 ? MUTANTS : MUTANTS.filter((mutant) => only.includes(mutant.id));
const outcomes: Outcome[] = [];
for (const mutant of chosen) {
  const started = performance.now();
  const outcome = runMutant(mutant);
  outcomes.push(outcome);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${outcome.padEnd(15)} ${mutant.id} (${seconds} s): ${mutant.breaks}`);
}
const killed = outcomes.filter((outcome) => outcome === 'killed').length;
const stale = outcomes.filter((outcome) => outcome === 'stale').length;
const baselineFailed = outcomes.filter((outcome) => outcome === 'baseline-failed').length;
const problems = [
  stale > 0 ? `${stale} no longer match the code` : '',
  baselineFailed > 0 ? `${baselineFailed} whose tests fail without the mutant` : '',
].filter((text) => text !== '');
console.log(
  `\nmutants: ${killed} of ${chosen.length} killed (${Math.round((100 * killed) / Math.max(chosen.length, 1))} %)${problems.map((text) => `, ${text}`).join('')}`,
);
process.exitCode = killed === chosen.length ? 0 : 1;
