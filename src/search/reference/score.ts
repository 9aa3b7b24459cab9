/**
 * `scoreOf(filter, doc)`: the relevance of a doc for a SCORED filter (one holding `fuzzy` or
 * `keyword`); the evaluator gives 1 to every hit of an unscored filter instead.
 *
 * - A doc that does not match scores 0.
 * - fuzzy / keyword node: best (max) string score over the value's string candidates that match
 *   (see `text.ts`: fuzzy = sum of term qualities 1 / 0.5 / 0.25; keyword = count of terms found).
 * - and: sum of its children's scores.  or: sum over the branches that match (others give 0).
 * - not: 0 (a negated subtree never adds relevance).
 * - any: max over the object elements that satisfy the inner filter of the inner score.
 * - every other operator: 0.
 */
import type { FilterNode } from '../dsl/ast.js';
import { matches, objectElements, stringCandidates } from './match.js';
import { fuzzyStringScore, keywordStringScore } from './text.js';
import { resolvePath } from './values.js';

/** The score of `doc` for `filter`: ≥ 0, and 0 when the doc does not match. */
export function scoreOf(filter: FilterNode, doc: unknown): number {
  return matches(filter, doc) ? matchedScore(filter, doc) : 0;
}

/** Score of a node already known to match. */
function matchedScore(filter: FilterNode, doc: unknown): number {
  switch (filter.op) {
    case 'and':
      return sum(filter.filters.map((f) => matchedScore(f, doc)));
    case 'or':
      return sum(filter.filters.map((f) => scoreOf(f, doc)));
    case 'not':
      return 0;
    case 'any': {
      const elements = objectElements(resolvePath(doc, filter.path)).filter((el) => matches(filter.filter, el));
      return elements.reduce((best, el) => Math.max(best, matchedScore(filter.filter, el)), 0);
    }
    case 'fuzzy':
    case 'keyword': {
      const scoreString = filter.op === 'fuzzy' ? fuzzyStringScore : keywordStringScore;
      const scores = stringCandidates(resolvePath(doc, filter.path)).map((s) => scoreString(filter.terms, s) ?? 0);
      return scores.reduce((best, s) => Math.max(best, s), 0);
    }
    default:
      return 0;
  }
}

function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}
