/**
 * What the Postgres indexes contribute to one search: necessary conditions for the GIN indexes
 * (trigrams for `like`, words for exact matches, `keyword` and `fuzzy` expanded through the
 * vocabulary), and, for a ranked text search, its top tier: the records that can reach the best
 * score, which usually fill the first page without scoring every match.
 */
import type { FilterNode, SortKey } from '../dsl/ast.js';
import { hasTextNode } from '../dsl/filter.js';
import { autoEdits, fuzzyTermQuality } from '../reference/text.js';
import type { BackendSearch } from '../backend.js';
import type { Db } from '../../store/db.js';
import { searchState } from '../../store/entity-state-repo.js';
import { probeVocabulary } from '../../store/vocab-repo.js';
import { lookupOf } from './lookup-index.js';
import type { SmallEntities } from './small-entities.js';
import { textRequirements, type TextRequirement } from './text-index.js';
import { expansionKey, fuzzyTerms, MAX_WORD_REQUIREMENTS, qualifiedPath, token, wordRequirements, type Expansions, type WordRequirement } from './word-index.js';

/** Index conditions of one search; all empty = the exact SQL alone (always correct, maybe slow). */
export interface IndexPlan {
  /** Lookup fields whose `keys` are written (none while the entity's search text is incomplete). */
  readonly lookup: readonly string[];
  readonly text: readonly TextRequirement[];
  readonly words: readonly WordRequirement[];
  /**
   * Made without reading the entity's state: its statement checks that the entity's search text
   * is complete and, when it is not, answers one row flagged incomplete (compile-search.ts).
   */
  readonly assumesText?: boolean;
}

/** The top tier of a ranked text search: the index conditions of its query and the score every row of it has. */
export interface Tier {
  readonly plan: IndexPlan;
  readonly score: number;
}

export const EXACT_ONLY: IndexPlan = { lookup: [], text: [], words: [] };

/** Up to this many records, an entity's ranked searches skip the top tier, and its `like` pages are not walked (like-walk.ts). */
export const SMALL_ENTITY = 5_000;

/** Expands the filter's fuzzy terms through the vocabulary, each word with its exact quality; with the entity's text state, read beside them. */
async function expand(db: Db, req: BackendSearch, filter: FilterNode): Promise<{ found: Expansions; textComplete: boolean }> {
  const terms = fuzzyTerms(filter);
  const probes = terms.map((t) => ({ ...t, edits: autoEdits(t.term) }));
  const { words, textComplete } = await probeVocabulary(db, req.connectorId, req.target.entity, probes);
  const found = new Map<string, { word: string; quality: number }[]>();
  terms.forEach((t, i) => {
    const scored = (words[i] ?? []).map((word) => ({ word, quality: fuzzyTermQuality(t.term, word) })).filter((e) => e.quality > 0);
    found.set(expansionKey(t), scored);
  });
  return { found, textComplete };
}

/**
 * The index plan of a search, and its top tier when it has one. Records written without the
 * search text (an OpenSearch deployment's, rows from before the migrations) hold no keys or
 * words: for an entity holding any, only the exact SQL is right. A search that can have no top
 * tier reads that state with its fuzzy terms' expansions, or else leaves the check to its own
 * statement (one round trip less either way); one that may reads the entity's state first, which
 * also says whether the entity is small. `small`: the entities recent reads found small
 * (small-entities.ts); a ranked search of one of them skips that read.
 */
export async function planIndexes(db: Db, req: BackendSearch, small?: SmallEntities): Promise<{ plan: IndexPlan; tier: Tier | null }> {
  const filter = req.query.filter;
  if (filter === null) return { plan: { ...EXACT_ONLY, lookup: lookupOf(req.target) }, tier: null };
  const lookup = lookupOf(req.target);
  const expansions = async () => (fuzzyTerms(filter).length > 0 ? await expand(db, req, filter) : null);
  const planOf = (found: Expansions | null): IndexPlan => ({ lookup, text: textRequirements(filter), words: wordRequirements(filter, lookup, req.target.idField, found) });
  // A small entity has no tier: without one, the text state comes with the expansions, or else
  // the search's own statement checks it.
  if (!mayHaveTier(req, filter) || small?.has(db, req.connectorId, req.target.entity) === true) {
    const expanded = await expansions();
    if (expanded === null) return { plan: { ...planOf(null), assumesText: true }, tier: null };
    return { plan: expanded.textComplete ? planOf(expanded.found) : EXACT_ONLY, tier: null };
  }
  const state = await searchState(db, req.connectorId, req.target.entity);
  // A small entity's matches are scored in one query faster than a tier that may come up short.
  const isSmall = state.records !== null && state.records <= SMALL_ENTITY;
  small?.saw(db, req.connectorId, req.target.entity, isSmall);
  if (!state.textComplete) return { plan: EXACT_ONLY, tier: null };
  const found = (await expansions())?.found ?? null;
  const plan = planOf(found);
  const top = isSmall ? null : topTier(req, filter, found);
  if (top === null) return { plan, tier: null };
  // The tier's words imply its text node's own requirement, which is left out: a GIN `&&` of two
  // common words reads both posting lists whole (12 ms at a million) only to be intersected.
  const rest = wordRequirements(filter, lookup, req.target.idField, found, top.node);
  return { plan, tier: { plan: { ...plan, words: [...rest, ...top.words] }, score: top.score } };
}

const isDefaultRanked = (sort: readonly SortKey[]): boolean => sort.length === 2 && sort[0]?.kind === 'score' && sort[1]?.kind === 'id';

/** The one text node whose score is the whole score: the filter itself, or the only scored part of a top-level `and`. */
function soleTextNode(filter: FilterNode): Extract<FilterNode, { op: 'fuzzy' | 'keyword' }> | null {
  if (filter.op === 'fuzzy' || filter.op === 'keyword') return filter;
  if (filter.op !== 'and') return null;
  const scored = filter.filters.filter(hasTextNode);
  const only = scored[0];
  return scored.length === 1 && only !== undefined && (only.op === 'fuzzy' || only.op === 'keyword') ? only : null;
}

/** Whether a search is of the kind a top tier serves: ranked by score alone, with one text node. */
function mayHaveTier(req: BackendSearch, filter: FilterNode): boolean {
  return req.query.scored && isDefaultRanked(req.query.sort) && soleTextNode(filter) !== null;
}

/**
 * The records that can score the maximum: for `keyword`, those holding every term; for `fuzzy`,
 * those holding, for every term, one of its best-quality words. Only for the default order
 * (score, then id; the caller checked {@link mayHaveTier}) and a first page or a cursor still
 * within that score.
 */
function topTier(req: BackendSearch, filter: FilterNode, expansions: Expansions | null): { node: FilterNode; words: WordRequirement[]; score: number } | null {
  const node = soleTextNode(filter);
  if (node === null || node.terms.length > MAX_WORD_REQUIREMENTS) return null;
  const path = qualifiedPath('', node.path);
  const words: WordRequirement[] = [];
  let score = 0;
  for (const term of node.terms) {
    if (node.op === 'keyword') {
      words.push([[token(path, term)]]);
      score += 1;
      continue;
    }
    const found = expansions?.get(expansionKey({ path, term }));
    if (found === undefined || found.length === 0) return null;
    const best = Math.max(...found.map((e) => e.quality));
    words.push(found.filter((e) => e.quality === best).map((e) => [token(path, e.word)]));
    score += best;
  }
  return req.after === null || Number(req.after[0]) === score ? { node, words, score } : null;
}
