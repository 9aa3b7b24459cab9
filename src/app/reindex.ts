/**
 * Reindex of one (connector type, entity) — the unit an index is shared by (DESIGN §3, §5).
 *
 * - OpenSearch: a new versioned index, every connector of that type shipped into it from
 *   version 0 (its watermarks are keyed by the new index name, so they start at 0), then the
 *   alias swaps atomically. Searches keep hitting the old index until the swap.
 * - Postgres: the records table is the index, so there is nothing to copy. What a reindex can
 *   still fix there is derived data: the entity's expression indexes and the text shadows (the
 *   lower-cased words `like`/`fuzzy`/`keyword` match), recomputed from each record's data.
 */
import { AppError } from '../errors.js';
import type { SearchBackend } from '../search/backend.js';
import { shipInto } from '../search/indexer.js';
import type { Logger } from '../logger.js';
import type { SearchTarget } from '../search/dsl/ast.js';
import { OpenSearchBackend } from '../search/opensearch/opensearch-backend.js';
import { searchTarget } from '../search/target.js';
import { connectorIdsOfType, recordBatch, writeShadows } from '../store/admin-queries.js';
import { registerSearchIndex } from '../store/watermarks-repo.js';
import type { Db } from '../store/db.js';
import { lockEntity } from '../store/records-repo.js';
import { markTextComplete } from '../store/entity-state-repo.js';
import type { Kysely } from 'kysely';
import type { DB } from '../store/db.js';
import { lookupOf } from '../search/postgres/lookup-index.js';
import { withShadows } from '../worker/page-writer.js';
import { indexWords, rememberWords } from '../store/page-words.js';
import { dedupeVocabulary, insertWords } from '../store/vocab-repo.js';

/** What a reindex did, as the admin API returns it. */
export type ReindexResult =
  | { backend: 'opensearch'; connector_type: string; entity: string; reindexed: true; index: string; connectors: number; shipped: number }
  | { backend: 'postgres'; connector_type: string; entity: string; reindexed: true; mode: 'in_place'; connectors: number; shadows_updated: number; note: string };

/** What a reindex needs. */
export interface ReindexDeps {
  readonly db: Kysely<DB>;
  readonly backend: SearchBackend;
  readonly logger?: Logger;
}

const BATCH = 2000;

async function reindexOpenSearch(deps: ReindexDeps, backend: OpenSearchBackend, target: SearchTarget): Promise<ReindexResult> {
  let shipped = 0;
  /** Ships every connector of the type into `index`; returns how many there are. */
  const shipEveryConnector = async (index: string): Promise<number> => {
    const connectors = await connectorIdsOfType(deps.db, target.connectorType);
    for (const id of connectors) shipped += await shipInto(deps, index, id, target);
    return connectors.length;
  };
  const index = await backend.reindex(target, async (next) => {
    await registerSearchIndex(deps.db, next, target.connectorType, target.entity);
    await shipEveryConnector(next);
  });
  // Until the swap, runs shipped their changes to the old index: what they committed after their
  // connector's pass above, and connectors created meanwhile, would be missing from the new one
  // until their next run. Every ship from now on resolves the alias to the new index.
  const connectors = await shipEveryConnector(index);
  return { backend: 'opensearch', connector_type: target.connectorType, entity: target.entity, reindexed: true, index, connectors, shipped };
}

/** Recomputes one connector's text shadows batch by batch, each under the entity lock. */
async function recomputeShadows(db: Kysely<DB>, connectorId: string, target: SearchTarget): Promise<number> {
  let after: string | null = null;
  let updated = 0;
  for (;;) {
    let committed = (): void => undefined;
    const batch: { record_id: string }[] = await db.transaction().execute(async (tx: Db) => {
      // Under the lock no page writer changes these rows between our read and our write.
      await lockEntity(tx, connectorId, target.entity);
      const rows = await recordBatch(tx, connectorId, target.entity, after, BATCH);
      // The page writer's own function: a reindex derives exactly what a sync would have written.
      const recomputed = withShadows(rows.map((r) => ({ id: r.record_id, data: r.data })), target.searchable, lookupOf(target));
      const indexed = indexWords(connectorId, target.entity, recomputed);
      updated += await writeShadows(tx, connectorId, target.entity, recomputed, recomputed.map((_, i) => indexed.words.of(i)));
      await insertWords(tx, connectorId, target.entity, indexed.fresh);
      committed = () => rememberWords(connectorId, target.entity, indexed.fresh);
      return rows;
    });
    committed();
    const last = batch[batch.length - 1];
    if (last === undefined || batch.length < BATCH) {
      // Every live record has its search text now; page writes of this backend keep it so.
      await dedupeVocabulary(db, connectorId, target.entity);
      await markTextComplete(db, connectorId, target.entity);
      return updated;
    }
    after = last.record_id;
  }
}

async function reindexPostgres(deps: ReindexDeps, target: SearchTarget): Promise<ReindexResult> {
  await deps.backend.ensureIndex(deps.db, target);
  const connectors = await connectorIdsOfType(deps.db, target.connectorType);
  let updated = 0;
  for (const id of connectors) updated += await recomputeShadows(deps.db, id, target);
  return {
    backend: 'postgres',
    connector_type: target.connectorType,
    entity: target.entity,
    reindexed: true,
    mode: 'in_place',
    connectors: connectors.length,
    shadows_updated: updated,
    note: 'the Postgres backend searches the records table in place: nothing was copied; entity indexes were ensured and text shadows, lookup keys and search text recomputed',
  };
}

/** Reindexes one (connector type, entity) on whatever backend the deps use. */
export async function reindexEntity(deps: ReindexDeps, connectorType: string, entity: string): Promise<ReindexResult> {
  const target = searchTarget(connectorType, entity);
  if (deps.backend instanceof OpenSearchBackend) return reindexOpenSearch(deps, deps.backend, target);
  if (deps.backend.kind === 'postgres') return reindexPostgres(deps, target);
  throw new AppError('invalid_request', `the ${deps.backend.kind} backend cannot reindex`, { path: 'connector_type' });
}
