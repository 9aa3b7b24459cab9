/** The incremental cursor a run saves, and when the pages behind its checkpoint began to be read. Pure. */
import type { SyncRunRow } from '../store/schema.js';

/**
 * The incremental cursor a successful run saves: the newest value it read, but never later than
 * when its reading began (`readFrom`: the run's first start, or the original's for a replay that
 * resumed its checkpoint). A record changed after its page was read (partitions read in
 * parallel, a replay days later, any run longer than the look-back) may sit below the newest
 * value read elsewhere; starting the next run from there catches it.
 *
 * A run that read no value (nothing changed, or list records that lack the field: work
 * management's compact tasks) saves where it began reading: everything changed before then was
 * in its answer. Without that, every later incremental run of such an entity would read it all.
 */
export function savedCursor(maxCursor: number | null, readFrom: number | null): number | null {
  if (maxCursor === null || readFrom === null) return maxCursor ?? readFrom;
  return Math.min(maxCursor, readFrom);
}

/** When the pages behind a run's checkpoint began to be read: inherited with the checkpoint, else the run's start. */
export function readFromOf(run: Pick<SyncRunRow, 'checkpoint' | 'started_at'>): number | null {
  if (typeof run.checkpoint?.readFrom === 'number') return run.checkpoint.readFrom;
  return run.started_at === null ? null : Math.floor(run.started_at.getTime() / 1000);
}
