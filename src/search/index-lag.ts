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

/** The highest version of the connector's records of `target`; null when it has none. */
async function maxVersion(db: Db, connectorId: string, target: SearchTarget): Promise<bigint | null> {
  const row = await db.selectFrom('records').select((eb) => eb.fn.max('version').as('v')).where('connector_id', '=', connectorId).where('entity', '=', target.entity).executeTakeFirst();
  return row?.v === null || row?.v === undefined ? null : BigInt(String(row.v));
}

/** Whether the live index (read each time: a reindex may swap it) has shipped up to `max`. */
async function covers(db: Db, backend: SearchBackend, connectorId: string, target: SearchTarget, max: bigint | null): Promise<boolean> {
  const index = await backend.liveIndex(db, target);
  if (index === null) return max === null;
  return BigInt(await getWatermark(db, index, connectorId, target.entity)) >= (max ?? 0n);
}

/** True once the live index's watermark covers the highest version of the connector's records of `target`. */
export async function indexCaughtUp(db: Db, backend: SearchBackend, connectorId: string, target: SearchTarget): Promise<boolean> {
  return !backend.shipsChanges || covers(db, backend, connectorId, target, await maxVersion(db, connectorId, target));
}

/**
 * Waits (polling every 100 ms) until the index covers the records as they were when called
 * (later writes are not waited for: under steady writes that wait would never end); false when
 * `timeoutMs` passed first.
 */
export async function waitIndexCaughtUp(db: Db, backend: SearchBackend, connectorId: string, target: SearchTarget, timeoutMs = 60_000): Promise<boolean> {
  if (!backend.shipsChanges) return true;
  const max = await maxVersion(db, connectorId, target);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await covers(db, backend, connectorId, target, max)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}
