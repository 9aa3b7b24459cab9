/**
 * A `like` page that does not hang on the planner's guess of how many records match. Postgres
 * estimates `text_lc like '%…%'` from `ANALYZE`'s sample of `text_lc` (a hundred histogram
 * bounds, each a whole record's text), so the same search walks the primary key after one
 * analysis and reads every trigram candidate after the next; at a million records either choice,
 * when wrong, took 370–480 ms (bench/README.md, sessions 31 and 32). Here the page measures
 * instead of guessing: it first walks at most `firstRows` of the tenant's records in the page's
 * order (the id's, or a time field's sort index on a first page), which a common pattern's page
 * fills at once. Otherwise the matches found there give the pattern's density, and the cheaper of
 * walking on from there and reading every candidate the trigram index gives after it (then
 * sorting them) is taken, by their measured costs.
 * Pure: no client, no SQL execution.
 */
import type { BackendSearch } from '../backend.js';
import type { FilterNode } from '../dsl/ast.js';
import type { IndexPlan } from './index-plan.js';
import { sortIndexFields } from './sort-index-fields.js';

/** What the walks of a page saw so far: the records read, whether none is left after them, the matches among them, the tenant's records. */
export interface Walked {
  readonly read: number;
  readonly exhausted: boolean;
  readonly hits: number;
  /** The entity's live record count for the tenant (0 when unknown): at least {@link read} are taken. */
  readonly records: number;
}

/** How pages are walked: the first walk's length, the costs the choice weighs (only their ratio matters), and whether small entities are left out. */
export interface WalkPolicy {
  readonly firstRows: number;
  /**
   * Leave the `like` pages of entities known small (index-plan.ts `SMALL_ENTITY`) to Postgres:
   * whichever plan it picks reads at most their few records. Tests turn it off to walk small data.
   */
  readonly plannedWhenSmall: boolean;
  /** µs per record read and tested in the walk. */
  readonly rowCost: number;
  /** µs per trigram candidate read, tested and sorted. */
  readonly candidateCost: number;
}

/**
 * Measured on a million customers (bench/README.md, session 32): a walked record cost 1.7–2.0
 * µs, a trigram candidate 5.5–6 µs (fewer than a hundred thousand of them). A first walk of
 * 500 records takes about 1 ms, and fills the page of a pattern in one record of ten.
 */
export const WALK_POLICY: WalkPolicy = { firstRows: 500, plannedWhenSmall: true, rowCost: 1.7, candidateCost: 6 };

/** The next statement of a walked page: done, walk on over `rows` more records, or read the rest from the candidates. */
export type WalkStep = { readonly kind: 'done' } | { readonly kind: 'walk'; readonly rows: number } | { readonly kind: 'candidates' };

/** Margin on the walk's length over what the density found predicts, so that one more walk usually ends the page. */
const WALK_MARGIN = 1.5;

/**
 * After a walk: done when the page is full or no record is left; else walk on when the records
 * still to read (at the density found so far) cost less than the candidates left after the walk,
 * else read those. A walk that found nothing reads the candidates: the pattern is rarer than one
 * in `read`.
 */
export function nextWalkStep(seen: Walked, size: number, costs: WalkPolicy = WALK_POLICY): WalkStep {
  if (seen.hits >= size || seen.exhausted) return { kind: 'done' };
  const density = seen.hits / seen.read;
  if (density === 0) return { kind: 'candidates' };
  // The tenant's records left after the walk; an unknown or lagging count takes as many as were read.
  const left = Math.max(seen.records - seen.read, seen.read);
  const rows = Math.ceil(((size - seen.hits) / density) * WALK_MARGIN);
  if (Math.min(rows, left) * costs.rowCost > density * left * costs.candidateCost) return { kind: 'candidates' };
  // Each walk reads at least as many records as all before it, so underestimates end in a few statements.
  return { kind: 'walk', rows: Math.max(rows, seen.read) };
}

/** Whether a conjunct of the filter is an exact match the lookup GIN or the primary key answers. */
function keyedConjunct(node: FilterNode, lookup: readonly string[], idField: string): boolean {
  switch (node.op) {
    case 'and':
      return node.filters.some((f) => keyedConjunct(f, lookup, idField));
    case 'eq':
    case 'in':
    case 'contains':
      return lookup.includes(node.path.field) || (node.path.field === idField && node.path.sub.length === 0);
    default:
      return false;
  }
}

/**
 * Whether the page's order can be walked: the id's (the primary key walks it, and a cursor is a
 * range of it), or a time field's that has a sort index (sort-index-fields.ts), on a first page
 * only: a cursor in a field's order is no range of that index (its components sort in mixed
 * directions), so a walk from it would first read every record before it.
 */
function walkableOrder(req: BackendSearch): boolean {
  const [first, second] = req.query.sort;
  if (req.query.sort.length === 1) return first?.kind === 'id';
  if (req.query.sort.length !== 2 || first?.kind !== 'field' || second?.kind !== 'id' || req.after !== null) return false;
  return first.path.sub.length === 0 && sortIndexFields(req.target).includes(first.path.field);
}

/**
 * Whether a page is walked: unranked, in a walkable order, with trigram conditions and nothing
 * else an index answers better (words, lookup keys, the id), so the trigram estimate alone would
 * pick its plan.
 */
export function walksLike(req: BackendSearch, plan: IndexPlan): boolean {
  const filter = req.query.filter;
  if (filter === null || req.query.scored || plan.text.length === 0 || plan.words.length > 0) return false;
  return walkableOrder(req) && !keyedConjunct(filter, plan.lookup, req.target.idField);
}
