/** Incremental bounds: saved cursors are epoch seconds; params and record fields have their own encodings. */
import type { IncrementalSpec } from '../catalog/types.js';

type TimeFormat = IncrementalSpec['format'];

/** Epoch seconds in one of the catalog's time encodings. */
export function formatTime(format: TimeFormat, sec: number): string | number {
  if (format === 'unix') return Math.floor(sec);
  const iso = new Date(Math.floor(sec) * 1000).toISOString();
  return format === 'date' ? iso.slice(0, 10) : iso;
}

/**
 * Formats an incremental lower bound in the param's encoding (`paramFormat`, else the field's:
 * live-chat `start_time` is unix while its records carry ISO strings). A `date` bound is the day
 * containing `sec`, so it never skips the records of that day.
 */
export function formatBound(inc: IncrementalSpec, sec: number): string | number {
  return formatTime(inc.paramFormat ?? inc.format, Math.max(0, sec));
}

/** Parses a record's incremental field (in the field's encoding) into epoch seconds; null when absent or unparseable. */
export function boundSeconds(inc: IncrementalSpec, value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return inc.format === 'unix' ? value : value / 1000;
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : ms / 1000;
  }
  return null;
}

/** What bounds a run's reads from below. */
export interface LowerBoundInput {
  readonly mode: 'full' | 'incremental';
  /** The saved cursor (epoch seconds), null before the first successful run. */
  readonly cursorSec: number | null;
  readonly lookbackSec: number;
  /** `replication_config.start_date` as epoch seconds, null when unset. */
  readonly startDateSec: number | null;
}

/**
 * Lower bound (epoch seconds) of the incremental filter of one run, or undefined to read
 * everything: incremental runs read from the cursor minus the look-back; every run, full ones
 * included, reads nothing before `start_date`. Full runs under a `start_date` therefore see exactly
 * the records they may hold, so their deletion detection stays exact.
 */
export function readLowerBound(o: LowerBoundInput): number | undefined {
  const fromCursor = o.mode === 'incremental' && o.cursorSec !== null ? o.cursorSec - o.lookbackSec : null;
  if (fromCursor === null) return o.startDateSec ?? undefined;
  return o.startDateSec === null ? fromCursor : Math.max(fromCursor, o.startDateSec);
}

/**
 * Splits [fromSec, toSec) into at most `count` contiguous time slices of equal width, newest
 * first, as partitions carrying the list's lower and exclusive upper bound params. Together they
 * cover exactly the range, so a full run reading every slice sees every record in it.
 */
export function timeSlices(inc: IncrementalSpec, fromSec: number, toSec: number, count: number): Record<string, string | number>[] {
  const upper = inc.upperParam;
  const from = Math.floor(fromSec);
  const to = Math.ceil(toSec);
  if (upper === undefined || to - from < 2 || count < 2) return [];
  const n = Math.min(count, to - from);
  const edges = Array.from({ length: n + 1 }, (_, i) => from + Math.round(((to - from) * i) / n));
  const slices: Record<string, string | number>[] = [];
  for (let i = n - 1; i >= 0; i--) slices.push({ [inc.param]: formatBound(inc, edges[i] as number), [upper]: formatBound(inc, edges[i + 1] as number) });
  return slices;
}

