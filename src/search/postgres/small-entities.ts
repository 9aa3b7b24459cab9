/**
 * Entities a recent search found small (5,000 records or fewer: index-plan.ts), per database
 * handle. A ranked text search of a small entity scores its matches in one statement that checks
 * the entity's text state itself, so it need not read that state first: one round trip less on
 * the search a small tenant's agent sends most. The answer is a hint: it decides how a search runs,
 * never what it answers (the statement's own check decides that), so a stale one only costs time.
 */
import type { Db } from '../../store/db.js';

/** How long a size read is trusted: an entity that grew meanwhile is only scored without a tier. */
const TTL_MS = 10_000;

/** Entities remembered per handle; past it the memory starts over (an API serving many tenants stays bounded). */
const MAX_ENTITIES = 10_000;

const keyOf = (connectorId: string, entity: string): string => `${connectorId}/${entity}`;

/** Small entities seen by recent searches, each until its read expires. */
export class SmallEntities {
  readonly #until = new WeakMap<object, Map<string, number>>();

  /** Whether a read younger than {@link TTL_MS} found the entity small. */
  has(db: Db, connectorId: string, entity: string, now = Date.now()): boolean {
    return (this.#until.get(db)?.get(keyOf(connectorId, entity)) ?? 0) > now;
  }

  /** What a search read of the entity's size: small or not (a record count over the limit, or unknown). */
  saw(db: Db, connectorId: string, entity: string, small: boolean, now = Date.now()): void {
    let byEntity = this.#until.get(db);
    if (byEntity === undefined) this.#until.set(db, (byEntity = new Map()));
    const key = keyOf(connectorId, entity);
    if (!small) {
      byEntity.delete(key);
      return;
    }
    if (byEntity.size >= MAX_ENTITIES) byEntity.clear();
    byEntity.set(key, now + TTL_MS);
  }
}
