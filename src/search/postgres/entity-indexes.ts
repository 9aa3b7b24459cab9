/**
 * Per-entity indexes of the Postgres search backend on the records table. Kept few on purpose:
 * every index is paid for on every page write.
 */
import type { Db } from '../../store/db.js';
import type { SearchTarget } from '../dsl/ast.js';

/** Creates the entity's search indexes if missing (none beyond the primary key yet). */
export async function ensureEntityIndexes(_db: Db, _target: SearchTarget): Promise<void> {
  // The primary key (connector_id, entity, record_id) serves id order and keyset paging.
}
