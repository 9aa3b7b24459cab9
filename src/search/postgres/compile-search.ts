/**
 * The SQL of one search page on the records table: the exact filter (compile-filter.ts) with the
 * index conditions of its plan (index-plan.ts), the score (compile-score.ts), the keyset after the
 * cursor and the order (compile-sort.ts).
 */
import { sql, type RawBuilder } from 'kysely';
import type { BackendSearch } from '../backend.js';
import type { FilterNode } from '../dsl/ast.js';
import { countTextNodes } from '../dsl/filter.js';
import { compileFilter, FALSE, TRUE, type RowContext } from './compile-filter.js';
import { matchedScore, textConjuncts } from './compile-score.js';
import { keysetAfter, orderBy, type RankedRow } from './compile-sort.js';
import { EXACT_ONLY, type IndexPlan, type Tier } from './index-plan.js';
import { lookupOf } from './lookup-index.js';
import { containsPattern, type TextRequirement } from './text-index.js';
import { tenantSeed, tokenHash, type WordRequirement } from './word-index.js';
import { GENERIC_PLAN } from '../../store/plan-marker.js';
import { textCompleteSql } from '../../store/entity-state-repo.js';

type Sql = RawBuilder<unknown>;

/**
 * The table a search reads: `records`, or the entity's own partition (migration 0014), which
 * spares the planner the parent's pruning and its translation of every filter expression.
 */
export type Relation = string;
export const RECORDS: Relation = 'records';

/** One row of a search page; `doc` is the document's JSON text on a pool that leaves jsonb unparsed (the search pool). */
export type SearchRow = { record_id: string; doc: Record<string, unknown> | string; score: number };

/** The trigram pre-filter of a filter: each requirement an `or` of substring conjunctions on `text_lc`. */
export function textPrefilter(reqs: readonly TextRequirement[]): Sql[] {
  const alt = (subs: readonly string[]): Sql => sql`(${sql.join(subs.map((x) => sql`t.text_lc like ${containsPattern(x)}`), sql` and `)})`;
  return reqs.map((r) => sql`(${sql.join(r.map(alt), sql` or `)})`);
}

/**
 * Up to this many alternatives of several words each (an `in` of multi-word values) are required
 * whole, one `@>` apiece, which Postgres answers with a BitmapOr over the GIN; past it, each is
 * weakened to its longest word. Weakened, an `in` on two values of a nested field read every
 * record holding the values' common word (`support-998`: `support`), 204–294 ms at 100,000
 * customers against 2.8 ms for one value (session 48's scratch; bench/README.md, session 49).
 */
export const WHOLE_ALTERNATIVES_MAX = 16;

/**
 * The word pre-filter: one condition per requirement. One alternative: all its words (`@>`);
 * several: the one-word alternatives (and those weakened to their longest word) in one array,
 * any of them (`&&`), or'ed with each multi-word alternative whole.
 */
function wordPrefilter(reqs: readonly WordRequirement[], seed: number): Sql[] {
  const hashes = (tokens: readonly string[]): number[] => tokens.map((t) => tokenHash(seed, t));
  const all = (tokens: readonly string[]): Sql => sql`t.words @> ${hashes(tokens)}::int4[]`;
  return reqs.map((r) => {
    if (r.length === 0) return FALSE;
    if (r.length === 1) return all(r[0] as readonly string[]);
    const multi = r.filter((alt) => alt.length > 1);
    const whole = multi.slice(0, WHOLE_ALTERNATIVES_MAX);
    const anyOf = [...r.filter((alt) => alt.length === 1), ...multi.slice(WHOLE_ALTERNATIVES_MAX)].map(longestWord);
    const conds = [...(anyOf.length === 0 ? [] : [sql`t.words && ${hashes(anyOf)}::int4[]`]), ...whole.map(all)];
    return conds.length === 1 ? (conds[0] as Sql) : sql`(${sql.join(conds, sql` or `)})`;
  });
}

/** The longest token of an alternative: one it implies. */
const longestWord = (alt: readonly string[]): string => alt.reduce((a, b) => (b.length > a.length ? b : a), '');

/** Up to this many text operators, a filter's words are written out in place (compile-filter.ts `wordsOf`). */
const INLINE_WORDS_MAX = 8;

export function rowOf(alias: string, req: BackendSearch, plan: IndexPlan): RowContext {
  const inlineWords = req.query.filter === null || countTextNodes(req.query.filter) <= INLINE_WORDS_MAX;
  return { doc: sql.ref(`${alias}.data`), shadow: sql.ref(`${alias}.shadow`), row: { recordId: sql.ref(`${alias}.record_id`), keys: sql.ref(`${alias}.keys`), idField: req.target.idField, lookup: plan.lookup }, inlineWords };
}

const RANKED: RankedRow = { doc: sql.ref('h.doc'), score: sql.ref('h.score'), id: sql.ref('h.record_id') };

/** The index conditions of a plan on records aliased `t`. */
function prefilters(req: BackendSearch, plan: IndexPlan): Sql[] {
  return [...textPrefilter(plan.text), ...wordPrefilter(plan.words, tenantSeed(req.connectorId, req.target.entity))];
}

/**
 * Builds the SQL of one search page (exported for tests of the compiled text). `plan`: what the
 * indexes may contribute (index-plan.ts); the exact filter still decides every row. The plan is
 * taken as right for the entity's records: see {@link compileCheckedSearch} otherwise.
 */
export function compileSearch(req: BackendSearch, plan: IndexPlan = { ...EXACT_ONLY, lookup: lookupOf(req.target) }, relation: Relation = RECORDS, order: PageOrder = 'planned'): RawBuilder<SearchRow> {
  return pageOf(req, plan, null, relation, order);
}

/**
 * How a page meets its order: `planned` leaves it to Postgres (walk an ordered index, or sort the
 * matches); `matches-first` reads every match after the cursor, then sorts them, whatever the
 * estimates say: what a like-walk.ts page chooses when the trigram candidates are few. Only for
 * unranked pages.
 */
export type PageOrder = 'planned' | 'matches-first';

/**
 * The page of a plan that assumed complete search text, gated on the entity's state read in the
 * same statement: the gate is a one-time filter, decided before any row is read, and shuts the
 * page when the text is incomplete. So a page with rows is right; an empty one may be either,
 * and the caller reads the state then (postgres-backend.ts). A wrapper that flagged every row
 * instead (a lateral join under the state's row) took about a third of a small entity's ranked
 * `keyword` statement to plan (bench/README.md, session 31).
 */
export function compileCheckedSearch(req: BackendSearch, plan: IndexPlan, relation: Relation = RECORDS, order: PageOrder = 'planned'): RawBuilder<SearchRow> {
  return pageOf(req, plan, textComplete(req), relation, order);
}

/** Whether the entity's search text is complete, read once per statement (a one-time filter or value). */
export const textComplete = (req: BackendSearch): Sql => textCompleteSql(req.connectorId, req.target.entity);

/**
 * Whether a page's plan is the same for every tenant and value: ranked by score, with word
 * requirements. Every word hash is seeded by its tenant (word-index.ts `tenantSeed`), so the word
 * GIN alone yields the tenant's candidates, and every candidate is scored whatever order it comes
 * in. Such a page keeps its tenant condition from the indexes ({@link tenantScan}), and then
 * nothing in it could make another plan better for other values: it is marked to be planned once
 * per connection ({@link GENERIC_PLAN}), where planning it for every execution took about a third
 * of a small tenant's ranked `keyword` (bench/README.md, session 31).
 */
const plannedOnce = (req: BackendSearch, plan: IndexPlan): boolean => plan.words.length > 0 && req.query.sort[0]?.kind === 'score';

/**
 * The scan's tenant condition and the statement's leading comment. A page {@link plannedOnce}
 * keeps the condition from the indexes (offered the tenant's sort index beside the word GIN,
 * Postgres intersected both, reading every index entry of a 1,000-record tenant for its 94
 * candidates, and a plan made once must not lean on one tenant's size) and is marked
 * {@link GENERIC_PLAN}. The condition still filters every row: two tenants' words may share a hash.
 */
function tenantScan(req: BackendSearch, plan: IndexPlan): { readonly tenant: Sql; readonly mark: Sql } {
  const same = sql`t.connector_id = ${req.connectorId}::uuid`;
  return plannedOnce(req, plan) ? { tenant: sql`(${same}) is true`, mark: sql.raw(GENERIC_PLAN) } : { tenant: same, mark: sql`` };
}

/** The keyset condition after the request's cursor. */
const pageAfter = (req: BackendSearch): Sql => (req.after === null ? TRUE : keysetAfter(req.query.sort, RANKED, req.after));

/** The same on the scan of records `t`, for an unranked page (no score to compare). */
export const scanAfter = (req: BackendSearch): Sql => (req.after === null ? TRUE : keysetAfter(req.query.sort, SCANNED, req.after));
/** The scanned record `t` as a sort reads it (an unranked page: no score). */
export const SCANNED: RankedRow = { doc: sql.ref('t.data'), score: sql`1::float8`, id: sql.ref('t.record_id') };

/** What a page's scan of records `t` requires: the checked search's gate, the plan's index conditions, `filter` exactly. */
function scanWhere(req: BackendSearch, plan: IndexPlan, checked: Sql | null, filter: FilterNode | null, row: RowContext): Sql {
  return sql.join([...(checked === null ? [] : [checked]), ...prefilters(req, plan), filter === null ? TRUE : compileFilter(filter, row)], sql` and `);
}

/** `checked`: the condition a checked search gates its rows on (null: none). */
function pageOf(req: BackendSearch, plan: IndexPlan, checked: Sql | null, relation: Relation, order: PageOrder): RawBuilder<SearchRow> {
  const filter = req.query.filter;
  const ranked = req.query.sort.some((k) => k.kind === 'score');
  if (ranked && order === 'matches-first') throw new Error('a ranked page always reads its matches first');
  const split = ranked && req.query.scored && filter !== null ? textConjuncts(filter) : null;
  if (split !== null && split.text.length > 0) return rankedTextPage(req, plan, checked, relation, split);
  const row = rowOf('t', req, plan);
  const first = order === 'matches-first';
  const matching = scanWhere(req, plan, checked, filter, row);
  const where = first ? sql`${matching} and ${scanAfter(req)}` : matching;
  const score = req.query.scored && filter !== null ? matchedScore(filter, row) : sql`1::float8`;
  // Ordered by score: every matching row is scored anyway, so score each once (Postgres would
  // otherwise inline the subquery and evaluate the score for the sort and for the output). Read
  // matches first: the fence leaves Postgres no ordered walk to choose.
  const fence = ranked || first ? sql`offset 0` : sql``;
  const scan = tenantScan(req, plan);
  return sql<SearchRow>`${scan.mark}
    select h.record_id, h.doc, h.score from (
      select t.record_id, t.data as doc, ${score} as score
        from ${sql.table(relation)} t
       where ${scan.tenant} and t.entity = ${req.target.entity}
         and t.deleted_at is null and ${where}
      ${fence}
    ) h
    where ${first ? TRUE : pageAfter(req)}
    order by ${orderBy(req.query.sort, RANKED)}
    limit ${req.size}`;
}

/**
 * A page ranked by score whose filter has top-level text conjuncts: each one's score is computed
 * once per candidate and filtered on (it holds exactly when above 0), instead of its words being
 * split once by the filter and again by the score (measured: about a third of a 1,000-record
 * entity's ranked `keyword`, bench/README.md session 28).
 */
function rankedTextPage(req: BackendSearch, plan: IndexPlan, checked: Sql | null, relation: Relation, split: ReturnType<typeof textConjuncts>): RawBuilder<SearchRow> {
  const row = rowOf('t', req, plan);
  const where = scanWhere(req, plan, checked, split.rest, row);
  const scores = split.text.map((node, i) => sql`${matchedScore(node, row)} as ${sql.id(`s${i}`)}`);
  const names = split.text.map((_, i) => sql.ref(`x.s${i}`));
  const rest = split.rest === null ? sql`0::float8` : matchedScore(split.rest, row);
  const scan = tenantScan(req, plan);
  return sql<SearchRow>`${scan.mark}
    select h.record_id, h.doc, h.score from (
      select x.record_id, x.doc, (${sql.join([...names, sql.ref('x.rest')], sql` + `)})::float8 as score from (
        select t.record_id, t.data as doc, ${sql.join(scores)}, ${rest} as rest
          from ${sql.table(relation)} t
         where ${scan.tenant} and t.entity = ${req.target.entity}
           and t.deleted_at is null and ${where}
        offset 0
      ) x
      where ${sql.join(names.map((n) => sql`${n} > 0`), sql` and `)}
    ) h
    where ${pageAfter(req)}
    order by ${orderBy(req.query.sort, RANKED)}
    limit ${req.size}`;
}

/**
 * The top tier of a ranked search (index-plan.ts): rows scoring exactly the tier's score, in id
 * order (their score ties). The candidates the indexes give are ordered by id first, and the
 * exact filter and score run on them in that order until the page is full: on a tier of
 * thousands of records, only about a page of them is evaluated.
 */
export function compileTierSearch(req: BackendSearch, tier: Tier, relation: Relation = RECORDS) {
  const row = rowOf('r', req, tier.plan);
  const filter = req.query.filter;
  const exact = filter === null ? TRUE : compileFilter(filter, row);
  const score = filter === null ? sql`1::float8` : matchedScore(filter, row);
  const after = pageAfter(req);
  const tenant = (a: string): Sql => sql`${sql.ref(`${a}.connector_id`)} = ${req.connectorId}::uuid and ${sql.ref(`${a}.entity`)} = ${req.target.entity}`;
  // Each candidate is fetched by its tuple id in a sub-select the planner cannot flatten: joined
  // any other way, it once filtered a small tenant's every row per candidate (a join filter).
  // Ordered by k's id, which arrives sorted, the page stops after `size` rows that qualify. A
  // tuple id is unique within one partition only: the fetch names the tenant too, which on the
  // parent table prunes it to the candidate's partition.
  return sql<SearchRow>`
    select h.record_id, h.doc, h.score from (
      select k.record_id, r.data as doc, ${exact} as ok, ${score} as score
        from (select t.ctid as tid, t.record_id from ${sql.table(relation)} t
               where ${tenant('t')} and t.deleted_at is null and ${sql.join(prefilters(req, tier.plan), sql` and `)}
               order by t.record_id offset 0) k
        cross join lateral (select r.record_id, r.data, r.shadow, r.keys from ${sql.table(relation)} r where r.ctid = k.tid and ${tenant('r')} offset 0) r
    ) h
    where h.ok and h.score = ${tier.score}::float8 and ${after}
    order by h.record_id
    limit ${req.size}`;
}

