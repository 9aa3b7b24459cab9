/**
 * The partition list of a run, stable across resumes: computed once (parent values read through
 * the runtime) and kept in the run's checkpoint; a resumed or replayed run reuses it, so its
 * partition index keeps pointing at the same partition even when parents changed meanwhile.
 */
import type { Kysely } from 'kysely';
import { errorLog } from '../errors.js';
import type { ConnectorDef, EntityDef } from '../connectors/catalog/types.js';
import type { Partition } from '../connectors/planner.js';
import type { ConnectorRuntime } from '../connectors/runtime-client.js';
import type { Logger } from '../logger.js';
import type { DB } from '../store/db.js';
import type { RunCheckpoint } from '../store/schema.js';
import type { CallGate } from './fetch-page.js';
import { resolvePartitions, type ReadContext } from './parent-values.js';
import { sliceByTime } from './time-slices.js';

/** What resolving a run's partitions needs. */
export interface PartitionSource {
  readonly db: Kysely<DB>;
  readonly runtime: ConnectorRuntime;
  readonly connector: ConnectorDef;
  readonly entity: EntityDef;
  readonly credentials: Record<string, unknown>;
  readonly config: Record<string, unknown>;
  readonly log: Logger;
  readonly signal: AbortSignal | undefined;
  readonly maxPages?: number;
  /** Full runs of an unpartitioned list with an upper time bound are split into this many slices (1: never). */
  readonly timeSlices?: number;
  readonly mode?: 'full' | 'incremental';
  /** The run's lower time bound (start_date, or the incremental cursor). */
  readonly since?: number | undefined;
  /** Told before each wait (429, backoff) of a read, so a stop can cut it short. */
  readonly onWait?: (ms: number) => void;
  readonly gate?: CallGate;
}

/**
 * Saves a checkpoint without counting a page (the first save of a run's partitions); only while
 * this attempt owns the run, so a superseded execution resolving late cannot rewind the live one.
 */
async function saveCheckpoint(db: Kysely<DB>, run: { id: string; attempts: number }, checkpoint: RunCheckpoint): Promise<void> {
  await db.updateTable('sync_runs').set({ checkpoint: JSON.stringify(checkpoint) }).where('id', '=', run.id).where('status', 'in', ['queued', 'running']).where('attempts', '=', run.attempts).execute();
}

/** How the run reads parents (and probes time ranges) through the runtime. */
export function readContextOf(src: PartitionSource): ReadContext {
  return {
    runtime: src.runtime,
    connector: src.connector,
    credentials: src.credentials,
    config: src.config,
    signal: src.signal,
    ...(src.maxPages === undefined ? {} : { maxPages: src.maxPages }),
    ...(src.gate === undefined ? {} : { gate: src.gate }),
    onRetry: (e, waitMs) => {
      src.onWait?.(waitMs);
      src.log.warn({ err: errorLog(e), waitMs }, e.message);
    },
  };
}

/** The run's partitions: from its checkpoint, else resolved now and saved there before any page. */
export async function runPartitions(src: PartitionSource, run: { id: string; attempts: number }, cp: RunCheckpoint): Promise<Partition[]> {
  if (Array.isArray(cp.partitions)) return cp.partitions;
  const rc = readContextOf(src);
  let partitions = await resolvePartitions(rc, src.entity);
  const whole = partitions.length === 1 && Object.keys(partitions[0] ?? {}).length === 0;
  if (whole && src.mode === 'full' && (src.timeSlices ?? 1) > 1) {
    const slices = await sliceByTime(rc, src.entity, src.since, src.timeSlices ?? 1);
    if (slices !== null) {
      partitions = slices;
      src.log.info({ slices: slices.length }, 'full read split into time slices');
    }
  }
  await saveCheckpoint(src.db, run, { ...cp, partitions: partitions.map((p) => ({ ...p })) });
  return partitions;
}
