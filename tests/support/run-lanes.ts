import { spawn } from 'node:child_process';

/**
 * Runs npm scripts in lanes side by side: each argument is one lane, its scripts (separated by spaces) one
 * after another, stopping at the first that fails. `npm test` runs its static checks so (ADR 0004): each is
 * single-threaded, and one after another they left a core idle for over three minutes. A lane's output is
 * printed whole when it ends, so two lanes never interleave; the exit code is the first failed lane's, else 0.
 *
 *   tsx tests/support/run-lanes.ts "typecheck format:check sites:check" lint
 */
interface LaneResult {
  lane: string;
  code: number;
  output: string;
}

function runScript(script: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal === null ? 1 : 128), output }));
  });
}

async function runLane(lane: string): Promise<LaneResult> {
  let output = '';
  for (const script of lane.split(/\s+/).filter(Boolean)) {
    const started = performance.now();
    const result = await runScript(script);
    output += `${result.output}${script}: ${result.code === 0 ? 'passed' : `failed (exit ${result.code})`} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`;
    if (result.code !== 0) return { lane, code: result.code, output };
  }
  return { lane, code: 0, output };
}

const lanes = process.argv.slice(2);
if (lanes.length === 0) {
  console.error('run-lanes: name at least one lane of npm scripts, e.g. "typecheck format:check" lint');
  process.exit(2);
}
const results = await Promise.all(
  lanes.map((lane) =>
    runLane(lane).then((result) => {
      process.stdout.write(result.output);
      return result;
    }),
  ),
);
process.exit(results.find((result) => result.code !== 0)?.code ?? 0);
