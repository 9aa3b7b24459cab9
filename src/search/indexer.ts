/**
 * Ships record changes to the search index in version order and moves the watermark. Each batch
 * runs under the (connector, entity) lock that page writers hold, so every version at or below
 * the highest one read is committed: the watermark never jumps over a version still in flight.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../store/db.js';
import { changesSince, lockEntity, type RecordChange } from '../store/records-repo.js';
import { getWatermark, setWatermark } from '../store/watermarks-repo.js';
import type { IndexChange, SearchBackend } from './backend.js';
import { projectSearchable } from './doc.js';
import type { SearchTarget } from './dsl/ast.js';

/** What the indexer needs. */
export interface IndexerDeps {
  readonly db: Kysely<DB>;
  readonly backend: SearchBackend;
}

function toIndexChange(target: SearchTarget, c: RecordChange): IndexChange {
  return { recordId: c.recordId, version: c.version, doc: c.deleted ? null : projectSearchable(target.searchable, c.data) };
}

/** Ships one batch; returns how many changes it shipped (0 = caught up). */
export async function shipBatch(deps: IndexerDeps, connectorId: string, target: SearchTarget, batchSize = 2000): Promise<number> {
  return deps.db.transaction().execute(async (tx) => {
    await lockEntity(tx, connectorId, target.entity);
    const index = await deps.backend.ensureIndex(tx, target);
    const watermark = await getWatermark(tx, index, connectorId, target.entity);
    const changes = await changesSince(tx, connectorId, target.entity, watermark, batchSize);
    const last = changes[changes.length - 1];
    if (last === undefined) return 0;
    await deps.backend.apply(tx, index, connectorId, changes.map((c) => toIndexChange(target, c)));
    await setWatermark(tx, index, connectorId, target.entity, last.version);
    return changes.length;
  });
}

/** Ships until caught up; returns the number of changes shipped. */
export async function shipAll(deps: IndexerDeps, connectorId: string, target: SearchTarget, batchSize = 2000): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await shipBatch(deps, connectorId, target, batchSize);
    total += n;
    if (n < batchSize) return total;
  }
}
