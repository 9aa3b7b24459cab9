/**
 * A text[] parameter as Postgres's array literal, built in one pass: a page write sends its
 * record ids so, and pg's own conversion escapes each element with two regular-expression
 * replaces, about half a microsecond per record in the worker's profile (bench/README.md,
 * session 37). Pure: strings in, text out.
 */

const NEEDS_ESCAPE = /["\\]/;

/** Quotes and backslashes escaped as array_in reads them back. */
const escaped = (s: string): string => s.replace(/[\\"]/g, (c) => `\\${c}`);

/**
 * `values` as a one-dimensional text[] literal, every element quoted (so an empty string,
 * `NULL`, spaces, commas and braces stay what they are); no values: the empty array.
 */
export function textArrayLiteral(values: readonly string[]): string {
  if (values.length === 0) return '{}';
  const joined = values.join('","');
  // One test over every id at once: ids with a quote or a backslash are rare.
  return NEEDS_ESCAPE.test(joined) ? `{${values.map((v) => `"${escaped(v)}"`).join(',')}}` : `{"${joined}"}`;
}
