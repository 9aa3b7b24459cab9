/**
 * The Postgres search backend searches the store in place: the records table (with its text
 * shadow) is the index, so every committed page is searchable at once and nothing is shipped.
 */
import { sql } from 'kysely';
import type { Db } from '../../store/db.js';
import type { BackendHit, BackendSearch, SearchBackend } from '../backend.js';
import type { SearchTarget } from '../dsl/ast.js';
import { sortValuesOf } from '../reference/order.js';
import { compileFilter, TRUE } from './compile-filter.js';
import { matchedScore } from './compile-score.js';
import { keysetAfter, orderBy, type RankedRow } from './compile-sort.js';
import { ensureEntityIndexes } from './entity-indexes.js';
import { lookupOf } from './lookup-index.js';

/** Builds the SQL of one search page (exported for tests of the compiled text). */
export function compileSearch(req: BackendSearch) {
  const row = { doc: sql.ref('t.data'), shadow: sql.ref('t.shadow'), row: { recordId: sql.ref('t.record_id'), keys: sql.ref('t.keys'), idField: req.target.idField, lookup: lookupOf(req.target) } };
  const filter = req.query.filter;
  const where = filter === null ? TRUE : compileFilter(filter, row);
  const score = req.query.scored && filter !== null ? matchedScore(filter, row) : sql`1::float8`;
  const ranked: RankedRow = { doc: sql.ref('h.doc'), score: sql.ref('h.score'), id: sql.ref('h.record_id') };
  const after = req.after === null ? TRUE : keysetAfter(req.query.sort, ranked, req.after);
  return sql<{ record_id: string; doc: Record<string, unknown>; score: number }>`
    select h.record_id, h.doc, h.score from (
      select t.record_id, t.data as doc, ${score} as score
        from records t
       where t.connector_id = ${req.connectorId}::uuid and t.entity = ${req.target.entity}
         and t.deleted_at is null and ${where}
    ) h
    where ${after}
    order by ${orderBy(req.query.sort, ranked)}
    limit ${req.size}`;
}

/** Search backend over the records table. */
export class PostgresSearchBackend implements SearchBackend {
  readonly kind = 'postgres' as const;
  readonly shipsChanges = false;

  async ensureIndex(db: Db, target: SearchTarget): Promise<string> {
    await ensureEntityIndexes(db, target);
    return 'records';
  }

  async ping(db: Db): Promise<void> {
    await sql`select 1 from records limit 1`.execute(db);
  }

  async liveIndex(): Promise<string> {
    return 'records';
  }

  async apply(): Promise<void> {
    // The store is the index: records are searchable as soon as their page commits.
  }

  async search(db: Db, req: BackendSearch): Promise<BackendHit[]> {
    const { rows } = await compileSearch(req).execute(db);
    return rows.map((r) => {
      const hit = { id: r.record_id, score: Number(r.score), doc: r.doc };
      return { ...hit, sortValues: sortValuesOf(req.query.sort, hit) };
    });
  }
}
