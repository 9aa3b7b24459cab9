/**
 * The Postgres search backend searches the store in place: the records table (with its text
 * shadow) is the index, so every committed page is searchable at once and nothing is shipped.
 */
import { sql, type CompiledQuery, type RawBuilder } from 'kysely';

type Sql = RawBuilder<unknown>;
import { AppError } from '../../errors.js';
import type { Db } from '../../store/db.js';
import type { BackendHit, BackendSearch, RejectedChange, SearchBackend } from '../backend.js';
import type { SearchTarget } from '../dsl/ast.js';
import { sortValuesOf } from '../reference/order.js';
import { compileFilter, FALSE, TRUE } from './compile-filter.js';
import { matchedScore } from './compile-score.js';
import { keysetAfter, orderBy, type RankedRow } from './compile-sort.js';
import { ensureEntityIndexes } from './entity-indexes.js';
import { lookupOf } from './lookup-index.js';
import { containsPattern, type TextRequirement } from './text-index.js';
import { EXACT_ONLY, planIndexes, type IndexPlan, type Tier } from './index-plan.js';
import type { WordRequirement } from './word-index.js';

/** The trigram pre-filter of a filter: each requirement an `or` of substring conjunctions on `text_lc`. */
function textPrefilter(reqs: readonly TextRequirement[]): Sql[] {
  const alt = (subs: readonly string[]): Sql => sql`(${sql.join(subs.map((x) => sql`t.text_lc like ${containsPattern(x)}`), sql` and `)})`;
  return reqs.map((r) => sql`(${sql.join(r.map(alt), sql` or `)})`);
}

/**
 * The word pre-filter: one array parameter per requirement. One alternative: all its words
 * (`@>`); several: any of them (`&&`), each weakened to its longest word, which it implies.
 */
function wordPrefilter(reqs: readonly WordRequirement[]): Sql[] {
  return reqs.map((r) => {
    if (r.length === 0) return FALSE;
    if (r.length === 1) return sql`t.words @> ${[...(r[0] as readonly string[])]}::text[]`;
    const longest = r.map((alt) => alt.reduce((a, b) => (b.length > a.length ? b : a), ''));
    return sql`t.words && ${longest}::text[]`;
  });
}

/**
 * Builds the SQL of one search page (exported for tests of the compiled text). `plan`: what the
 * indexes may contribute (index-plan.ts); the exact filter still decides every row. `minScore`:
 * only rows scoring exactly that (a ranked search's top tier).
 */
export function compileSearch(req: BackendSearch, plan: IndexPlan = { ...EXACT_ONLY, lookup: lookupOf(req.target) }, tier: Tier | null = null) {
  const row = { doc: sql.ref('t.data'), shadow: sql.ref('t.shadow'), row: { recordId: sql.ref('t.record_id'), keys: sql.ref('t.keys'), idField: req.target.idField, lookup: plan.lookup } };
  const filter = req.query.filter;
  const pre = [...textPrefilter(plan.text), ...wordPrefilter(plan.words), ...wordPrefilter(tier?.words ?? [])];
  const where = sql.join([...pre, filter === null ? TRUE : compileFilter(filter, row)], sql` and `);
  const score = req.query.scored && filter !== null ? matchedScore(filter, row) : sql`1::float8`;
  const ranked: RankedRow = { doc: sql.ref('h.doc'), score: sql.ref('h.score'), id: sql.ref('h.record_id') };
  const after = req.after === null ? TRUE : keysetAfter(req.query.sort, ranked, req.after);
  const inTier = tier === null ? TRUE : sql`h.score = ${tier.score}::float8`;
  return sql<SearchRow>`
    select h.record_id, h.doc, h.score from (
      select t.record_id, t.data as doc, ${score} as score
        from records t
       where t.connector_id = ${req.connectorId}::uuid and t.entity = ${req.target.entity}
         and t.deleted_at is null and ${where}
    ) h
    where ${after} and ${inTier}
    order by ${orderBy(req.query.sort, ranked)}
    limit ${req.size}`;
}

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

  constructor(limits: Partial<PostgresSearchLimits> = {}) {
    this.#limits = { timeoutMs: limits.timeoutMs ?? 30_000 };
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
    const { plan, tier } = await planIndexes(db, req);
    // A ranked text search first tries the records that can reach the best score: when they fill
    // the page, no other record can come before them (ties break by id in both).
    const top = tier === null ? [] : await this.#run(db, this.#compile(db, req, plan, tier));
    const rows = top.length === req.size ? top : await this.#run(db, this.#compile(db, req, plan, null));
    return rows.map((r) => {
      const hit = { id: r.record_id, score: Number(r.score), doc: r.doc };
      return { ...hit, sortValues: sortValuesOf(req.query.sort, hit) };
    });
  }

  #compile(db: Db, req: BackendSearch, plan: IndexPlan, tier: Tier | null): CompiledQuery<SearchRow> {
    const compiled = compileSearch(req, plan, tier).compile(db);
    if (compiled.parameters.length > MAX_PARAMETERS || compiled.sql.length > MAX_SQL_CHARS) {
      throw new AppError('invalid_query', 'the filter is too large to run: split it into several searches or use fewer, shorter values', { path: 'query.filter' });
    }
    return compiled;
  }

  async #run(db: Db, compiled: CompiledQuery<SearchRow>): Promise<SearchRow[]> {
    const timeoutMs = this.#limits.timeoutMs;
    try {
      return (await db.executeQuery(compiled)).rows;
    } catch (e) {
      if ((e as { code?: unknown }).code === QUERY_CANCELED) {
        throw new AppError('invalid_query', `the search ran longer than ${timeoutMs / 1000} s and was stopped: narrow the filter (fewer like/fuzzy/keyword clauses, or add eq/range clauses)`, { path: 'query.filter' });
      }
      throw e;
    }
  }
}

const QUERY_CANCELED = '57014';
type SearchRow = { record_id: string; doc: Record<string, unknown>; score: number };
