/** The Postgres search backend: index tables in schema search_idx, queries compiled from the AST. */
import { sql } from 'kysely';
import type { Db } from '../../store/db.js';
import type { BackendHit, BackendSearch, IndexChange, SearchBackend } from '../backend.js';
import type { SearchTarget } from '../dsl/ast.js';
import { sortValuesOf } from '../reference/order.js';
import { compileFilter, TRUE } from './compile-filter.js';
import { matchedScore } from './compile-score.js';
import { keysetAfter, orderBy, type RankedRow } from './compile-sort.js';
import { aliasTarget, applyToIndexTable, checkIndexName, ensureIndexTable } from './index-tables.js';

/** Builds the SQL of one search page (exported for golden tests of the compiled text). */
export function compileSearch(indexName: string, req: BackendSearch) {
  const table = sql.table(`search_idx.${checkIndexName(indexName)}`);
  const row = { doc: sql.ref('t.doc'), shadow: sql.ref('t.shadow') };
  const filter = req.query.filter;
  const where = filter === null ? TRUE : compileFilter(filter, row);
  const score = req.query.scored && filter !== null ? matchedScore(filter, row) : sql`1::float8`;
  const ranked: RankedRow = { doc: sql.ref('h.doc'), score: sql.ref('h.score'), id: sql.ref('h.record_id') };
  const after = req.after === null ? TRUE : keysetAfter(req.query.sort, ranked, req.after);
  return sql<{ record_id: string; doc: Record<string, unknown>; score: number }>`
    select h.record_id, h.doc, h.score from (
      select t.record_id, t.doc, ${score} as score
        from ${table} t
       where t.connector_id = ${req.connectorId}::uuid and ${where}
    ) h
    where ${after}
    order by ${orderBy(req.query.sort, ranked)}
    limit ${req.size}`;
}

/** Search backend over Postgres index tables. */
export class PostgresSearchBackend implements SearchBackend {
  readonly kind = 'postgres' as const;

  ensureIndex(db: Db, target: SearchTarget): Promise<string> {
    return ensureIndexTable(db, target);
  }

  liveIndex(db: Db, target: SearchTarget): Promise<string | null> {
    return aliasTarget(db, target);
  }

  apply(db: Db, indexName: string, connectorId: string, changes: readonly IndexChange[]): Promise<void> {
    return applyToIndexTable(db, indexName, connectorId, changes);
  }

  async search(db: Db, req: BackendSearch): Promise<BackendHit[]> {
    const index = await aliasTarget(db, req.target);
    if (index === null) return [];
    const { rows } = await compileSearch(index, req).execute(db);
    return rows.map((r) => {
      const hit = { id: r.record_id, score: Number(r.score), doc: r.doc };
      return { ...hit, sortValues: sortValuesOf(req.query.sort, hit) };
    });
  }
}
