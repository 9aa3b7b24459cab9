/**
 * A text[] parameter as Postgres's array literal, built in one pass: a page write sends its
 * record ids so, and pg's own conversion escapes each element with two regular-expression
 * replaces, about half a microsecond per record in the worker's profile (bench/README.md,
 * session 37). Pure: strings in, text out.
 */

/** The two characters array_in reads only behind a backslash inside a quoted element. */
const SPECIAL = /["\\]/;
const SPECIALS = new RegExp(SPECIAL.source, 'g');

/**
 * Whether any of `values` holds a quote or a backslash: one test over all of them at once (ids
 * and words with one are rare). Tested on the values alone: the literal's own separators are
 * quotes, and testing the joined literal sent every list of two or more through the escaping
 * path (bench/README.md, session 38).
 */
export const needsEscaping = (values: readonly string[]): boolean => SPECIAL.test(values.join(''));

/**
 * `values` as a one-dimensional text[] literal, every element quoted (so an empty string,
 * `NULL`, spaces, commas and braces stay what they are); no values: the empty array.
 */
export function textArrayLiteral(values: readonly string[]): string {
  if (values.length === 0) return '{}';
  return needsEscaping(values) ? `{${values.map((v) => `"${v.replace(SPECIALS, '\\$&')}"`).join(',')}}` : `{"${values.join('","')}"}`;
}
