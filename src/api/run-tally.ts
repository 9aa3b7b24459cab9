/**
 * The growth of the runs' record counters between two scrapes, run by run. Summing `sync_runs`
 * instead would shrink whenever old runs are pruned, which Prometheus reads as a counter reset
 * and turns into a jump of every record ever synced. Pure.
 */

export const OUTCOMES = ['seen', 'inserted', 'updated', 'unchanged', 'deleted'] as const;
export type Outcome = (typeof OUTCOMES)[number];
export type OutcomeCounts = Record<Outcome, number>;

/** One run's counters, as the database holds them now. */
export interface RunCounts extends OutcomeCounts {
  readonly id: string;
}

/** Remembers the counters of the runs it was shown; forgets those no longer shown. */
export class RunTally {
  private last = new Map<string, OutcomeCounts>();

  /**
   * Growth since the previous call. `runs` must hold every run that may have changed since then:
   * the active ones and those finished since (a run is shown until it can no longer change).
   */
  advance(runs: readonly RunCounts[]): OutcomeCounts {
    const growth: OutcomeCounts = { seen: 0, inserted: 0, updated: 0, unchanged: 0, deleted: 0 };
    const next = new Map<string, OutcomeCounts>();
    for (const run of runs) {
      const prev = this.last.get(run.id);
      for (const k of OUTCOMES) growth[k] += Math.max(0, run[k] - (prev?.[k] ?? 0));
      next.set(run.id, run);
    }
    this.last = next;
    return growth;
  }
}
