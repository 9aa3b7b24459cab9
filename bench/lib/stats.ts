/** Latency statistics and the result rows every benchmark reports. */

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] as number;
}

/** p50/p95/p99 of timings in ms. */
export function summarize(ms: readonly number[]): { p50: number; p95: number; p99: number } {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99) };
}

/** Times `fn` `n` times after `warmup` untimed calls, stopping early after `budgetMs` (at least 5 samples). */
export async function timeIt(n: number, fn: (i: number) => Promise<unknown>, warmup = 3, budgetMs = 30_000): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn(i);
  const out: number[] = [];
  const deadline = performance.now() + budgetMs;
  for (let i = 0; i < n && (i < 5 || performance.now() < deadline); i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return out;
}

/** One figure of the report: value vs baseline, the ratio, and the verdict against a target. */
export interface Figure {
  readonly group: string;
  readonly name: string;
  readonly unit: string;
  readonly value: number;
  readonly baseline: number | null;
  /** value / baseline (or baseline / value when `higherIsBetter`), as the target states it. */
  readonly ratio: number | null;
  readonly target: string;
  readonly pass: boolean | null;
  readonly note?: string;
}

export const round = (x: number, d = 2): number => Math.round(x * 10 ** d) / 10 ** d;
