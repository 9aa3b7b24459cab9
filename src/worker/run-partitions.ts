/**
 * The partition list of a run, stable across resumes: computed once (parent values read through
 * the runtime) and kept in the run's checkpoint; a resumed or replayed run reuses it, so its
 * partition index keeps pointing at the same partition even when parents changed meanwhile.
 */
import type { Kysely } from 'kysely';
import type { ConnectorDef, EntityDef } from '../connectors/catalog/types.js';
import type { Partition } from '../connectors/planner.js';
import type { ConnectorRuntime } from '../connectors/runtime-client.js';
import type { Logger } from '../logger.js';
import type { DB } from '../store/db.js';
import type { RunCheckpoint } from '../store/schema.js';
import { resolvePartitions } from './parent-values.js';

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
}

/** Saves a checkpoint without counting a page (the first save of a run's partitions). */
async function saveCheckpoint(db: Kysely<DB>, runId: string, checkpoint: RunCheckpoint): Promise<void> {
  await db.updateTable('sync_runs').set({ checkpoint: JSON.stringify(checkpoint) }).where('id', '=', runId).where('status', 'in', ['queued', 'running']).execute();
}

/** The run's partitions: from its checkpoint, else resolved now and saved there before any page. */
export async function runPartitions(src: PartitionSource, runId: string, cp: RunCheckpoint): Promise<Partition[]> {
  if (Array.isArray(cp.partitions)) return cp.partitions;
  const partitions = await resolvePartitions(
    {
      runtime: src.runtime,
      connector: src.connector,
      credentials: src.credentials,
      config: src.config,
      signal: src.signal,
      ...(src.maxPages === undefined ? {} : { maxPages: src.maxPages }),
      onRetry: (e, waitMs) => src.log.warn({ code: e.code, waitMs }, e.message),
    },
    src.entity,
  );
  await saveCheckpoint(src.db, runId, { ...cp, partitions: partitions.map((p) => ({ ...p })) });
  return partitions;
}
