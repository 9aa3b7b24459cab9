/**
 * Whether a shipping search index holds an entity's latest changes yet. A run commits first and
 * ships right after (indexer.ts), so for a moment after a run ends the index may lack its last
 * changes or tombstones; whoever must see them waits on the watermark. Backends that ship
 * nothing (Postgres) are always caught up.
 */
import type { Db } from '../store/db.js';
import { getWatermark } from '../store/watermarks-repo.js';
import type { SearchBackend } from './backend.js';
import type { SearchTarget } from './dsl/ast.js';

/** True once the live index's watermark covers the highest version of the connector's records of `target`. */
export async function indexCaughtUp(db: Db, backend: SearchBackend, connectorId: string, target: SearchTarget): Promise<boolean> {
  if (!backend.shipsChanges) return true;
  const max = await db.selectFrom('records').select((eb) => eb.fn.max('version').as('v')).where('connector_id', '=', connectorId).where('entity', '=', target.entity).executeTakeFirst();
  const index = await backend.liveIndex(db, target);
  if (index === null) return max?.v === null || max?.v === undefined;
  return BigInt(await getWatermark(db, index, connectorId, target.entity)) >= BigInt(String(max?.v ?? 0));
}

/** Waits (polling every 100 ms) until {@link indexCaughtUp}; false when `timeoutMs` passed first. */
export async function waitIndexCaughtUp(db: Db, backend: SearchBackend, connectorId: string, target: SearchTarget, timeoutMs = 60_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await indexCaughtUp(db, backend, connectorId, target)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}
