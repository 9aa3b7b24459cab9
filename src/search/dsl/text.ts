/**
 * Word splitting shared by the parser (query terms) and every evaluator (value words), so that
 * `fuzzy` and `keyword` see the same words everywhere: lower-case (String#toLowerCase), then split
 * on every run of characters that are neither a Unicode letter nor a Unicode digit.
 */

const NON_WORD = /[^\p{L}\p{N}]+/u;
const ASCII = /^[\x00-\x7f]*$/;

/** Whether a text is all ASCII: lower-casing it and splitting its words need no Unicode tables (SQL and the fast paths do it exactly). */
export const isAscii = (text: string): boolean => ASCII.test(text);

/** The words of a text: lower-cased, split on non letter/digit runs, empties dropped. */
export function textWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(NON_WORD)
    .filter((w) => w !== '');
}

/** The distinct words of a query text, in first-occurrence order (duplicates add nothing). */
export function queryTerms(text: string): string[] {
  return [...new Set(textWords(text))];
}
