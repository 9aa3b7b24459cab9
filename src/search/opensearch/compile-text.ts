/**
 * `like`, `fuzzy` and `keyword` on one slot (derive.ts), with the reference's scores built from
 * constant-score clauses instead of BM25 (reference/text.ts, score.ts):
 *
 * - like: a wildcard query on the lower-cased strings `l`: `%` → `*`, `_` → `?` (Lucene's `?`
 *   is one code point, like the reference's `_`), literal `*`, `?`, `\` escaped with `\`.
 * - fuzzy, per term: dis_max of constant scores — exact word 1, prefix 0.5, within 1 edit 0.5,
 *   within 2 edits 0.25 (edits only within the term's AUTO budget). dis_max takes the best
 *   clause, which is the best quality over the words: max commutes with max. The terms are
 *   `must` clauses, so every term has to match and the string's score is their sum.
 * - keyword: one constant score 1 per term in `should`: the score is the number of terms found.
 * - One string must hold the whole match: a single string's words are the flat `w`; two or more
 *   strings are nested groups `t`, joined with score_mode `max` (best string, as the reference).
 *   A slot has either `w` or `t`, so the `should` of both adds exactly one of them.
 * Lucene sums and maxes these in float; all values are small sums of powers of two, hence exact.
 */
import type { FilterNode, TextOp } from '../dsl/ast.js';
import { anchoredLikeTokens } from '../dsl/like.js';
import { autoEdits } from '../reference/text.js';
import { bool, constantScore, disMax, fuzzy, nested, prefix, term, wildcard, type Query } from './query-dsl.js';

type TextNode = Extract<FilterNode, { op: TextOp }>;

/** The Lucene wildcard pattern of a contract `like` pattern, or null when it is invalid. */
export function wildcardPattern(pattern: string): string | null {
  const tokens = anchoredLikeTokens(pattern.toLowerCase());
  if (tokens === null) return null;
  return tokens
    .map((t) => (t.kind === 'any' ? '*' : t.kind === 'one' ? '?' : /[*?\\]/.test(t.char) ? `\\${t.char}` : t.char))
    .join('');
}

/** `like` on the slot at `slot` (the caller wraps it for nested entries). */
export function likeQuery(slot: string, pattern: string): Query | null {
  const value = wildcardPattern(pattern);
  return value === null ? null : wildcard(`${slot}.l`, value);
}

/**
 * Best quality of one term over the words in `field`, each word behind `tag` (names.ts
 * `wordTag`): the tag is kept fixed, so the edits count within the word alone and only the
 * searching connector's words are expanded.
 */
function fuzzyTerm(field: string, t: string, tag: string): Query {
  const edits = autoEdits(t);
  const clauses = [constantScore(term(field, tag + t), 1), constantScore(prefix(field, tag + t), 0.5)];
  if (edits >= 1) clauses.push(constantScore(fuzzy(field, tag + t, 1, tag.length), 0.5));
  if (edits >= 2) clauses.push(constantScore(fuzzy(field, tag + t, 2, tag.length), 0.25));
  return disMax(clauses);
}

/** fuzzy over the words of ONE string: every term, summed. */
function fuzzyWords(field: string, termsList: readonly string[], tag: string): Query {
  return bool({ must: termsList.map((t) => fuzzyTerm(field, t, tag)) });
}

/** keyword over the words of ONE string: any term, counted. */
function keywordWords(field: string, termsList: readonly string[], tag: string): Query {
  return bool({ should: termsList.map((t) => constantScore(term(field, tag + t), 1)) });
}

/** fuzzy / keyword on the slot at `slot`: its single string (`w`) or its best string (`t`); `tag` as the index's documents carry it. */
export function textQuery(slot: string, node: TextNode, tag: string): Query {
  const words = node.op === 'fuzzy' ? fuzzyWords : keywordWords;
  return bool({
    should: [words(`${slot}.w`, node.terms, tag), nested(`${slot}.t`, words(`${slot}.t.w`, node.terms, tag), 'max')],
  });
}
