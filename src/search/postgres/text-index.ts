/**
 * The trigram pre-filter of the Postgres backend (migration 0012). Each record carries
 * `text_lc`: every string of its searchable projection, lower-cased as the reference does
 * (String#toLowerCase), one per line, under a trigram GIN that also keys the connector. A `like`
 * that must hold means each literal run of 3+ characters of its pattern occurs in some string of
 * the record, hence in `text_lc`. Those substring tests find the candidates through the index,
 * and the exact predicate, unchanged, decides: the pre-filter only ever removes records the
 * exact filter would reject too.
 * Pure: no client, no SQL execution.
 */
import type { FilterNode } from '../dsl/ast.js';
import { anchoredLikeTokens } from '../dsl/like.js';

/** The shortest literal run worth a trigram lookup (pg_trgm needs 3 characters). */
const MIN_RUN = 3;

/** Literal runs (3+ code points) of a `like` pattern, lower-cased; empty when it has none. */
export function likeRuns(pattern: string): string[] {
  const tokens = anchoredLikeTokens(pattern.toLowerCase());
  if (tokens === null) return [];
  const runs: string[] = [];
  let run: string[] = [];
  const flush = (): void => {
    // A run holding a line break could span two strings of text_lc: it proves nothing.
    if (run.length >= MIN_RUN && !run.includes('\n')) runs.push(run.join(''));
    run = [];
  };
  for (const t of tokens) {
    if (t.kind === 'char') run.push(t.char);
    else flush();
  }
  flush();
  return runs;
}

/**
 * A necessary condition on `text_lc`: some alternative holds, an alternative being substrings
 * that all occur. `[[a, b]]` = a and b; `[[a], [b]]` = a or b.
 */
export type TextRequirement = readonly (readonly string[])[];

/**
 * What a filter requires of `text_lc`: every returned requirement holds for each record the
 * filter matches. Only conjunctions are followed (`and`, and `any`, whose element lies inside
 * the record); `or` and `not` require nothing here. Only `like` uses it: exact matches and
 * words go through the word index (word-index.ts), which is more selective.
 */
export function textRequirements(node: FilterNode): TextRequirement[] {
  switch (node.op) {
    case 'like': {
      const runs = likeRuns(node.pattern);
      return runs.length === 0 ? [] : [[runs]];
    }
    case 'and':
      return node.filters.flatMap((f) => textRequirements(f));
    case 'any':
      return textRequirements(node.filter);
    default:
      return [];
  }
}

/** A substring as a LIKE pattern over `text_lc` (`%`, `_`, `\` taken literally). */
export function containsPattern(s: string): string {
  return `%${s.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
}
