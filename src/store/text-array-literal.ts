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
 * `values` as a one-dimensional text[] literal, every element quoted (so an empty string,
 * `NULL`, spaces, commas and braces stay what they are); no values: the empty array.
 */
export function textArrayLiteral(values: readonly string[]): string {
  if (values.length === 0) return '{}';
  const joined = values.join('","');
  // One test over every element at once: ids and words with a quote or a backslash are rare.
  return SPECIAL.test(joined) ? `{${values.map((v) => `"${v.replace(SPECIALS, '\\$&')}"`).join(',')}}` : `{"${joined}"}`;
}
