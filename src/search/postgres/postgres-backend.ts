/**
 * The Postgres search backend searches the store in place: the records table (with its text
 * shadow) is the index, so every committed page is searchable at once and nothing is shipped.
 */
import { sql, type CompiledQuery } from 'kysely';
import { AppError } from '../../errors.js';
import type { Db } from '../../store/db.js';
import type { BackendHit, BackendSearch, RejectedChange, SearchBackend } from '../backend.js';
import type { SearchTarget, SortKey } from '../dsl/ast.js';
import { sortable, sortValuesOf } from '../reference/order.js';
import { jsonHit } from '../json-hit.js';
import { ensureEntityIndexes } from './entity-indexes.js';
import { lookupOf } from './lookup-index.js';
import { EXACT_ONLY, planIndexes, SMALL_ENTITY, type IndexPlan } from './index-plan.js';
import { compileCheckedSearch, compileSearch, compileTierSearch, type PageOrder, type Relation, type SearchRow } from './compile-search.js';
import { compileWalkSearch, type WalkRow } from './compile-walk.js';
import { nextWalkStep, WALK_POLICY, walksLike, type WalkPolicy } from './like-walk.js';
import { searchState } from '../../store/entity-state-repo.js';
import { RecordRelations } from '../../store/record-partitions.js';
import { SmallEntities } from './small-entities.js';

export { compileSearch } from './compile-search.js';

/** Limits of one compiled search, beyond what the DSL's own limits already bound. */
export interface PostgresSearchLimits {
  /**
   * The statement timeout searches run under, for the error message: it is enforced by the
   * connections of the search pool (deps.ts), not per statement, which would cost three round
   * trips (begin, set, commit) on every search.
   */
  readonly timeoutMs: number;
}

// The wire protocol counts bind parameters in 16 bits; node-postgres would wrap the count silently.
const MAX_PARAMETERS = 65_535;
// A statement of several MB is parsed and planned before anything runs; no sane filter needs it.
const MAX_SQL_CHARS = 1_000_000;

/** Search backend over the records table. */
export class PostgresSearchBackend implements SearchBackend {
  readonly kind = 'postgres' as const;
  readonly shipsChanges = false;
  readonly #limits: PostgresSearchLimits;
  /** Each search reads its entity's partition directly (compile-search.ts `Relation`). */
  readonly #relations = new RecordRelations();
  /** Entities whose ranked searches need not read their state first (small-entities.ts). */
  readonly #small = new SmallEntities();

  /** How a `like` page is walked (like-walk.ts); tests shorten the first walk to reach every step on little data. */
  readonly #walk: WalkPolicy;

  constructor(limits: Partial<PostgresSearchLimits> = {}, walk: WalkPolicy = WALK_POLICY) {
    this.#limits = { timeoutMs: limits.timeoutMs ?? 30_000 };
    this.#walk = walk;
  }

  async ensureIndex(db: Db, target: SearchTarget): Promise<string> {
    await ensureEntityIndexes(db, target);
    return 'records';
  }

  async ping(db: Db): Promise<void> {
    await sql`select 1 from records limit 1`.execute(db);
  }

  async indexIdentity(): Promise<null> {
    return null;
  }

  async liveIndex(): Promise<string> {
    return 'records';
  }

  async apply(): Promise<readonly RejectedChange[]> {
    // The store is the index: records are searchable as soon as their page commits.
    return [];
  }

  async search(db: Db, req: BackendSearch): Promise<BackendHit[]> {
    const relation = await this.#relations.of(db, req.target.entity);
    const { plan, tier } = await planIndexes(db, req, this.#small);
    // A ranked text search first tries the records that can reach the best score: when they fill
    // the page, no other record can come before them (ties break by id in both).
    const top = tier === null ? [] : await this.#run(db, this.#checked(compileTierSearch(req, tier, relation).compile(db)));
    const rows = top.length === req.size ? top : await this.#page(db, req, plan, relation);
    return rows.map((r) => {
      // The search pool reads documents as JSON text (store/db.ts); another pool parses them.
      if (typeof r.doc === 'string') return jsonHit(r.record_id, Number(r.score), r.doc, req.query.sort);
      const hit = { id: r.record_id, score: Number(r.score), doc: r.doc };
      return { ...hit, sortValues: sortValuesOf(req.query.sort, hit) };
    });
  }

  /**
   * One page by the plan: walked (like-walk.ts), or as the plan has it. A small entity's `like`
   * page is not walked: whichever plan Postgres picks, it reads at most its few records.
   */
  async #page(db: Db, req: BackendSearch, plan: IndexPlan, relation: Relation): Promise<SearchRow[]> {
    const walk = walksLike(req, plan) && !(this.#walk.plannedWhenSmall && this.#small.has(db, req.connectorId, req.target.entity));
    return walk ? this.#walked(db, req, plan, relation) : this.#planned(db, req, plan, relation, 'planned');
  }

  /** A plan that assumed complete search text falls back to the exact SQL where it is not. */
  async #planned(db: Db, req: BackendSearch, plan: IndexPlan, relation: Relation, order: PageOrder): Promise<SearchRow[]> {
    if (plan.assumesText !== true) return this.#run(db, this.#checked(compileSearch(req, plan, relation, order).compile(db)));
    const rows = await this.#run(db, this.#checked(compileCheckedSearch(req, plan, relation, order).compile(db)));
    // Rows pass the statement's gate only while the text is complete; an empty page may be a
    // shut gate, and only then is the state read (one round trip, on empty answers alone).
    if (rows.length > 0 || (await searchState(db, req.connectorId, req.target.entity)).textComplete) return rows;
    return this.#run(db, this.#checked(compileSearch(req, EXACT_ONLY, relation).compile(db)));
  }

  /**
   * Walks the tenant's records in the page's order, each walk going on where the last stopped,
   * until the page fills or reading the trigram candidates left is cheaper (like-walk.ts).
   */
  async #walked(db: Db, req: BackendSearch, plan: IndexPlan, relation: Relation): Promise<SearchRow[]> {
    const found: SearchRow[] = [];
    let at = req;
    let read = 0;
    for (let rows = this.#walk.firstRows; ; ) {
      const walk = walkOf(await this.#run(db, this.#checked(compileWalkSearch(at, plan, rows, relation).compile(db))), rows, req.query.sort);
      found.push(...walk.matches);
      read += rows;
      const exhausted = walk.last === null && found.length < req.size;
      // What the first walk learnt of the entity's size (its count, or all of it read) spares its
      // next `like` pages the walk while it is small.
      const size = walk.last !== null ? walk.records : exhausted && req.after === null ? read : null;
      if (at === req && size !== null) this.#small.saw(db, req.connectorId, req.target.entity, size <= SMALL_ENTITY);
      const step = nextWalkStep({ read, exhausted, hits: found.length, records: walk.records }, req.size, this.#walk);
      if (step.kind === 'done' || walk.last === null) return found.slice(0, req.size);
      at = { ...req, after: walk.last, size: req.size - found.length };
      if (step.kind === 'candidates') return [...found, ...(await this.#planned(db, at, plan, relation, 'matches-first'))];
      rows = step.rows;
    }
  }

  #checked<R>(compiled: CompiledQuery<R>): CompiledQuery<R> {
    if (compiled.parameters.length > MAX_PARAMETERS || compiled.sql.length > MAX_SQL_CHARS) {
      throw new AppError('invalid_query', 'the filter is too large to run: split it into several searches or use fewer, shorter values', { path: 'query.filter' });
    }
    return compiled;
  }

  async #run<R>(db: Db, compiled: CompiledQuery<R>): Promise<R[]> {
    const timeoutMs = this.#limits.timeoutMs;
    try {
      return (await db.executeQuery(compiled)).rows;
    } catch (e) {
      // A partition gone under a kept answer: the next search looks again.
      if ((e as { code?: unknown }).code === UNDEFINED_TABLE) this.#relations.forget(db);
      if ((e as { code?: unknown }).code === QUERY_CANCELED) {
        throw new AppError('invalid_query', `the search ran longer than ${timeoutMs / 1000} s and was stopped: narrow the filter (fewer like/fuzzy/keyword clauses, or add eq/range clauses)`, { path: 'query.filter' });
      }
      throw e;
    }
  }
}

const QUERY_CANCELED = '57014';
const UNDEFINED_TABLE = '42P01';

/**
 * What one walk's rows say: its matches, the sort values of its last record when it read its
 * whole budget (null: none is left after it, or the page filled first and the statement stopped
 * there), and the tenant's record count that row carries.
 */
function walkOf(rows: readonly WalkRow[], budget: number, sort: readonly SortKey[]): { matches: SearchRow[]; last: unknown[] | null; records: number } {
  const last = rows.find((r) => Number(r.n) === budget);
  const matches = rows.filter((r): r is SearchRow & WalkRow => r.ok);
  if (last === undefined) return { matches, last: null, records: 0 };
  const valueOf = (v: unknown): unknown => (typeof v === 'string' ? sortable(JSON.parse(v)) : null);
  const values = sort.map((key, i) => (key.kind === 'id' ? last.record_id : valueOf(last[`v${i}`])));
  return { matches, last: values, records: Number(last.records ?? 0) };
}
