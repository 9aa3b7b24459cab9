/**
 * Ships record changes to the search index in version order and moves the watermark. Changes are
 * read under the (connector, entity) lock that page writers hold, so every version at or below
 * the highest one read is committed: the watermark never jumps over a version still in flight.
 * The engine is called after that lock is released, under a lock of the shippers' own.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../store/db.js';
import { changesSince, lockEntity, type RecordChange } from '../store/records-repo.js';
import { claimIndexIdentity, getWatermark, registerSearchIndex, setWatermark } from '../store/watermarks-repo.js';
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
 * Serializes the shippers of one (index, connector, entity) across processes for as long as `fn`
 * runs, with a session lock on `conn` (no transaction stays open across engine calls). Two
 * shippers at once could send an older version of a record after a newer delete whose tombstone
 * the engine has already forgotten (index.gc_deletes), which would resurrect the record.
 */
async function withShippingLock<T>(conn: Kysely<DB>, index: string, connectorId: string, entity: string, fn: () => Promise<T>): Promise<T> {
  const key = `ship/${index}/${connectorId}/${entity}`;
  const unlock = () => sql`select pg_advisory_unlock(hashtextextended(${key}, 0))`.execute(conn);
  await sql`select pg_advisory_lock(hashtextextended(${key}, 0))`.execute(conn);
  let result: T;
  try {
    result = await fn();
  } catch (e) {
    // The shipping error is the one to report; a connection too broken to unlock is dropped by
    // the pool, and its session's locks go with it.
    await unlock().catch(() => undefined);
    throw e;
  }
  await unlock();
  return result;
}

/**
 * Ships the changes after `index`'s watermark (at most `batchSize`) and moves the watermark;
 * returns how many it shipped. Call holding the shipping lock.
 */
async function shipOnce(conn: Kysely<DB>, deps: IndexerDeps, index: string, connectorId: string, target: SearchTarget, batchSize: number): Promise<number> {
  // A name that now stands for a new engine index (a replaced cluster) ships from version 0.
  const identity = await deps.backend.indexIdentity(index);
  if (identity !== null) await claimIndexIdentity(conn, index, identity);
  const watermark = await getWatermark(conn, index, connectorId, target.entity);
  // Read under the entity lock, which page writers hold until they commit: every version up to
  // the highest one read is then committed, and later writes take higher ones, so the watermark
  // skips none. The lock is released before the engine is called: writes need not wait for it.
  const changes = await conn.transaction().execute(async (tx) => {
    await lockEntity(tx, connectorId, target.entity);
    return changesSince(tx, connectorId, target.entity, watermark, batchSize);
  });
  const last = changes[changes.length - 1];
  if (last === undefined) return 0;
  const rejected = await deps.backend.apply(conn, index, connectorId, changes.map((c) => toIndexChange(target, c)));
  reportRejected(deps.logger, { connector: connectorId, entity: target.entity, index }, rejected);
  // Fenced by the identity: if the name came to stand for a new engine index while this batch
  // was in flight (a replaced cluster), the reset watermark stays reset.
  await setWatermark(conn, index, connectorId, target.entity, last.version, identity);
  return changes.length;
}

/**
 * Ships every change of one connector's entity after `index`'s watermark into `index` (the live
 * one, or a reindex's new one), batch by batch; returns how many it shipped.
 */
export async function shipInto(deps: IndexerDeps, index: string, connectorId: string, target: SearchTarget, batchSize = 2000): Promise<number> {
  return deps.db.connection().execute((conn) =>
    withShippingLock(conn, index, connectorId, target.entity, async () => {
      let total = 0;
      for (;;) {
        const n = await shipOnce(conn, deps, index, connectorId, target, batchSize);
        total += n;
        if (n < batchSize) return total;
      }
    }),
  );
}

/** Ships until the live index is caught up; returns the number of changes shipped. */
export async function shipAll(deps: IndexerDeps, connectorId: string, target: SearchTarget, batchSize = 2000): Promise<number> {
  if (!deps.backend.shipsChanges) return 0;
  const index = await deps.backend.ensureIndex(deps.db, target);
  await registerSearchIndex(deps.db, index, target.connectorType, target.entity);
  return shipInto(deps, index, connectorId, target, batchSize);
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
