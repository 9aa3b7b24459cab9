/**
 * Where a run is in its partitions when several are read at once: the next partition to start,
 * and the partitions started but not finished with the page each reads next. The checkpoint a
 * page batch commits is a snapshot taken when its last page was buffered, and batches commit in
 * order, so a committed checkpoint covers exactly the pages committed. Pure: no I/O.
 */
import type { RunCheckpoint } from '../store/schema.js';

type PageParams = Record<string, unknown>;

/** A partition handed to a reader: its index and its next page (null: from its first page). */
export interface PartitionClaim {
  readonly index: number;
  readonly page: PageParams | null;
}

export class RunProgress {
  private next: number;
  /** Started and not finished; null page = not read yet (resumes from its first page). */
  private readonly open = new Map<number, PageParams | null>();
  /** Open partitions of the checkpoint resumed from, handed out before new ones. */
  private readonly resume: number[];

  /** Progress from a checkpoint: the current format (`open` + `next`) or the single-chain one. */
  constructor(cp: RunCheckpoint, private readonly total: number) {
    if (Array.isArray(cp.open)) {
      for (const o of cp.open) this.open.set(o.partition, o.page);
      this.next = cp.next ?? cp.partition;
    } else if (cp.page !== null) {
      this.open.set(cp.partition, cp.page);
      this.next = cp.partition + 1;
    } else {
      this.next = cp.partition;
    }
    this.resume = [...this.open.keys()].sort((a, b) => a - b);
  }

  /** How many partitions are left to hand out. */
  remaining(): number {
    return this.resume.length + Math.max(0, this.total - this.next);
  }

  /** The next partition to read, or null when every partition is handed out. */
  claim(): PartitionClaim | null {
    const index = this.resume.shift();
    if (index !== undefined) return { index, page: this.open.get(index) ?? null };
    if (this.next >= this.total) return null;
    const claimed = this.next++;
    this.open.set(claimed, null);
    return { index: claimed, page: null };
  }

  /** A page of `index` was read: `nextPage` is the one after it, null when the partition is done. */
  advance(index: number, nextPage: PageParams | null): void {
    if (nextPage === null) this.open.delete(index);
    else this.open.set(index, nextPage);
  }

  /**
   * The checkpoint now. `partition`/`page` name the lowest unfinished partition and its page,
   * which for a single chain is the whole story (and what the admin views show).
   */
  snapshot(): Pick<RunCheckpoint, 'partition' | 'page' | 'open' | 'next'> {
    const open = [...this.open.entries()].sort((a, b) => a[0] - b[0]).map(([partition, page]) => ({ partition, page }));
    const lowest = open[0];
    return { partition: lowest?.partition ?? this.next, page: lowest?.page ?? null, open, next: this.next };
  }
}
