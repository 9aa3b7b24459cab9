/**
 * Ships record changes to the search index in version order and moves the watermark. Each batch
 * runs under the (connector, entity) lock that page writers hold, so every version at or below
 * the highest one read is committed: the watermark never jumps over a version still in flight.
 */
import type { Kysely } from 'kysely';
import type { DB, Db } from '../store/db.js';
import { changesSince, lockEntity, type RecordChange } from '../store/records-repo.js';
import { claimIndexIdentity, getWatermark, setWatermark } from '../store/watermarks-repo.js';
import type { Logger } from '../logger.js';
import type { IndexChange, RejectedChange, SearchBackend } from './backend.js';
import { projectSearchable } from './doc.js';
import type { SearchTarget } from './dsl/ast.js';

/** What the indexer needs. */
export interface IndexerDeps {
  readonly db: Kysely<DB>;
  readonly backend: SearchBackend;
  /** Where refused documents are reported. */
  readonly logger?: Logger;
}

/**
 * Reports documents the index refused for their own content. The watermark moves past them, so
 * they stay unsearchable until the record changes or the entity is reindexed: that is said once,
 * at error level, with their ids.
 */
export function reportRejected(logger: Logger | undefined, where: { connector: string; entity: string; index: string }, rejected: readonly RejectedChange[]): void {
  if (rejected.length === 0) return;
  logger?.error({ ...where, count: rejected.length, rejected: rejected.slice(0, 20) }, `the search index refused ${rejected.length} record(s); they stay unsearchable until they change or the entity is reindexed`);
}

function toIndexChange(target: SearchTarget, c: RecordChange): IndexChange {
  return { recordId: c.recordId, version: c.version, doc: c.deleted ? null : projectSearchable(target.searchable, c.data) };
}

/**
 * Inside the caller's transaction, which holds the entity lock: ships the changes after `index`'s
 * watermark (at most `batchSize`) and moves the watermark. Returns how many it shipped.
 */
export async function shipChangesInto(tx: Db, deps: IndexerDeps, index: string, connectorId: string, target: SearchTarget, batchSize: number): Promise<number> {
  // A name that now stands for a new engine index (a replaced cluster) ships from version 0.
  const identity = await deps.backend.indexIdentity(index);
  if (identity !== null) await claimIndexIdentity(tx, index, identity);
  const watermark = await getWatermark(tx, index, connectorId, target.entity);
  const changes = await changesSince(tx, connectorId, target.entity, watermark, batchSize);
  const last = changes[changes.length - 1];
  if (last === undefined) return 0;
  const rejected = await deps.backend.apply(tx, index, connectorId, changes.map((c) => toIndexChange(target, c)));
  reportRejected(deps.logger, { connector: connectorId, entity: target.entity, index }, rejected);
  await setWatermark(tx, index, connectorId, target.entity, last.version);
  return changes.length;
}

/** Ships one batch into the live index; returns how many changes it shipped (0 = caught up). */
export async function shipBatch(deps: IndexerDeps, connectorId: string, target: SearchTarget, batchSize = 2000): Promise<number> {
  if (!deps.backend.shipsChanges) return 0;
  return deps.db.transaction().execute(async (tx) => {
    await lockEntity(tx, connectorId, target.entity);
    const index = await deps.backend.ensureIndex(tx, target);
    // Watermarks reference the index by name: register it (idempotently) before the first one.
    await tx.insertInto('search_indexes').values({ name: index, connector_type: target.connectorType, entity: target.entity }).onConflict((oc) => oc.column('name').doNothing()).execute();
    return shipChangesInto(tx, deps, index, connectorId, target, batchSize);
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

/**
 * A single-flight background shipper for one (connector, entity): `poke()` after each page
 * write starts shipping on its own connection while the run fetches the next page; pokes that
 * arrive during a ship make it loop once more. `drain()` waits until everything is shipped.
 */
export class BackgroundShipper {
  private running: Promise<void> | null = null;
  private dirty = false;
  private failure: unknown = null;

  constructor(
    private readonly deps: IndexerDeps,
    private readonly connectorId: string,
    private readonly target: SearchTarget,
    private readonly batchSize = 5000,
  ) {}

  poke(): void {
    this.dirty = true;
    this.running ??= this.loop().finally(() => {
      this.running = null;
    });
  }

  private async loop(): Promise<void> {
    try {
      while (this.dirty) {
        this.dirty = false;
        await shipAll(this.deps, this.connectorId, this.target, this.batchSize);
      }
    } catch (e) {
      this.failure = e;
    }
  }

  /** Ships what is left; rethrows a failure of any background ship. */
  async drain(): Promise<void> {
    this.poke();
    while (this.running !== null) await this.running;
    if (this.failure !== null) {
      const e = this.failure;
      this.failure = null;
      throw e;
    }
  }
}
