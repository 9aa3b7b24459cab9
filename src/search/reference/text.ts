/**
 * `fuzzy` and `keyword` on one string of the reference evaluator, with their scores.
 *
 * Value words and query terms come from `dsl/text.ts` (lower-cased, split on non letter/digit).
 * fuzzy: EVERY term must match some value word, either within its AUTO edit budget (term length in
 *   code points 1–2: 0 edits, 3–5: 1, more: 2; Levenshtein insert/delete/substitute, no
 *   transposition) or as a prefix of the word. Term quality = best over the words of:
 *   exact word 1, prefix 0.5, d edits (d ≥ 1, within budget) 2^-d (0.5, 0.25).
 *   String score = sum of term qualities.
 * keyword: ANY term equal to a value word. String score = number of terms that are value words.
 * Scores are sums of powers of two, hence exact in binary floating point whatever the order of
 * summation: a backend computing them in another order gets the identical numbers.
 */
import { textWords } from '../dsl/text.js';

/** Edits allowed for a term of this length (Elasticsearch "AUTO"). */
export function autoEdits(term: string): number {
  const n = Array.from(term).length;
  if (n <= 2) return 0;
  if (n <= 5) return 1;
  return 2;
}

/** Levenshtein distance over code points (insert, delete, substitute; cost 1 each). */
export function levenshtein(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= y.length; j += 1) {
      const substitute = (prev[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1);
      row[j] = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, substitute);
    }
    prev = row;
  }
  return prev[y.length] ?? 0;
}

/** Quality of one query term against one value word, or 0 when it does not match. */
export function fuzzyTermQuality(term: string, word: string): number {
  if (term === word) return 1;
  const prefix = word.startsWith(term) ? 0.5 : 0;
  const d = levenshtein(term, word);
  const edits = d <= autoEdits(term) ? 2 ** -d : 0;
  return Math.max(prefix, edits);
}

/** fuzzy on one string: the score, or null when some term matches no word. */
export function fuzzyStringScore(terms: readonly string[], text: string): number | null {
  const words = textWords(text);
  let score = 0;
  for (const term of terms) {
    const best = words.reduce((acc, w) => Math.max(acc, fuzzyTermQuality(term, w)), 0);
    if (best === 0) return null;
    score += best;
  }
  return score;
}

/** keyword on one string: the number of terms present as words, or null when none is. */
export function keywordStringScore(terms: readonly string[], text: string): number | null {
  const words = new Set(textWords(text));
  const hits = terms.filter((t) => words.has(t)).length;
  return hits === 0 ? null : hits;
}
