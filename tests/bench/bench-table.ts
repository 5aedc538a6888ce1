import { resolve } from 'node:path';
import { bundleGateway, REPO_ROOT } from '../../gateway/cli/gateway-bundle';
import { startPortal, type PortalProcess } from '../e2e/support/portal-process';

/** One row of the bench table: a figure, its measured value, its target and whether the value meets it. */
export interface BenchRow {
  figure: string;
  value: string;
  target: string;
  /** null: the figure has no numeric target (printed for information). */
  met: boolean | null;
  /**
   * The same measurement of a floor, taken in the same run on the same machine (a bare Fastify route, React alone, a plain RJSF page,
   * plain inputs, a static page): how much of the figure is the machine's and how much is the portal's.
   */
  reference: string;
  /** The value over the reference (ratio()), where both are one number of the same unit. */
  ratio?: string;
}

/** Why a figure missed, printed under the table (e.g. Lighthouse's failing audits). */
export interface BenchNote {
  title: string;
  lines: string[];
}

export interface BenchGroupResult {
  rows: BenchRow[];
  notes?: BenchNote[];
}

/** Nearest-rank percentile of an ascending list. */
export function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ?? 0;
}

export function ascending(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

export function metLabel(met: boolean | null): string {
  if (met === null) return '-';
  return met ? 'yes' : 'NO';
}

/** `ours / reference` for the ratio column, two decimals; a reference of 0 has no ratio. */
export function ratio(ours: number, reference: number): string {
  return reference === 0 ? `n/a (reference 0)` : `${(ours / reference).toFixed(2)}x`;
}

/** Median of a few runs (the middle one of an odd count). */
export function median(values: readonly number[]): number {
  return percentile(ascending(values), 0.5);
}

/** A Markdown table, so the same text pastes into the README. */
export function formatTable(rows: readonly BenchRow[]): string {
  const cells = rows.map((row) => [row.figure, row.value, row.reference, row.ratio ?? '-', row.target, metLabel(row.met)]);
  const header = ['figure', 'value', 'reference (same run)', 'value / reference', 'target', 'met?'];
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((row) => row[column]?.length ?? 0)));
  const line = (row: readonly string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n');
}

let benchGateway: Promise<string> | undefined;
/** The bench measures the gateway as `npm start` runs it: built once per bench run. */
function benchGatewayEntry(): Promise<string> {
  benchGateway ??= bundleGateway(resolve(REPO_ROOT, 'build/bench-gateway'));
  return benchGateway;
}

/**
 * A gateway process for the bench. On a machine busy with other runs a start can outlast
 * startPortal's 60 s health wait; the bench then tries again rather than losing the whole table.
 */
export async function startBenchPortal(env: Record<string, string>): Promise<PortalProcess> {
  const entry = await benchGatewayEntry();
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startPortal(env, { entry });
    } catch (error) {
      if (attempt >= 3) throw error;
      console.error(`bench: gateway start ${attempt} failed (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); trying again`);
    }
  }
}

/** The address of one of the portal's screens (SPEC §2 base path: /{issuer}/{locale}/account/{route}). */
export function accountPageUrl(baseUrl: string, siteId: string, locale: string, route: string): string {
  return `${baseUrl}/${siteId}/${locale}/account/${route}`;
}
