/** Follows a run until it ends, showing its progress (src/cli/run-progress-bar.ts). */
import type { Kysely } from 'kysely';
import type { DB } from '../store/db.js';
import { getEntityState } from '../store/entity-state-repo.js';
import { getRun } from '../store/runs-repo.js';
import type { SyncRunRow } from '../store/schema.js';
import { runProgressView, type ExpectedTotal } from './run-progress-bar.js';

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

/**
 * What a run will read, where it can be known: the list's size as the runtime reports it (offset
 * paging's total, in the run's checkpoint from its first page on), else, for a full run, about as
 * many records as the previous sync counted. An incremental run reads only changes and a first
 * sync has nothing to go by: no total, so no bar and no ETA.
 */
function expectedOf(run: SyncRunRow, previous: ExpectedTotal | null): ExpectedTotal | null {
  const reported = run.checkpoint?.reportedTotal;
  return reported === undefined ? previous : { records: reported, source: 'reported by the runtime' };
}

async function previousCount(db: Kysely<DB>, run: SyncRunRow): Promise<ExpectedTotal | null> {
  if (run.mode !== 'full') return null;
  const state = await getEntityState(db, run.connector_id, run.entity);
  if (state === null || state.last_synced_at === null || Number(state.record_count) === 0) return null;
  return { records: Number(state.record_count), source: 'as last synced' };
}

/** Polls the run row; resolves with the final row. */
export async function waitForRun(db: Kysely<DB>, runId: string, opts: { quiet?: boolean; out?: NodeJS.WriteStream; intervalMs?: number } = {}): Promise<SyncRunRow> {
  const first = await getRun(db, runId);
  if (first === null) throw new Error(`run ${runId} vanished`);
  const previous = await previousCount(db, first);
  const view = opts.quiet === true ? null : runProgressView(opts.out ?? process.stderr);
  for (let run: SyncRunRow | null = first; ; run = await getRun(db, runId)) {
    if (run === null) throw new Error(`run ${runId} vanished`);
    if (TERMINAL.has(run.status)) {
      view?.finish(run, expectedOf(run, previous));
      return run;
    }
    view?.update(run, expectedOf(run, previous));
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 200));
  }
}

/** Says on stderr why a run did not succeed; returns the exit status (1 when failed or cancelled). */
export function reportRunEnd(run: SyncRunRow): number {
  if (run.status === 'failed') process.stderr.write(`run ${run.id} failed: ${run.error?.message ?? 'unknown error'}\n`);
  if (run.status === 'cancelled') process.stderr.write(`run ${run.id} was cancelled${run.error === null ? '' : `: ${run.error.message}`}\n`);
  return run.status === 'failed' || run.status === 'cancelled' ? 1 : 0;
}
