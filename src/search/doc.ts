/**
 * What an index stores for a record: its searchable projection, and a sparse "text shadow" of
 * it, so `like`, `fuzzy` and `keyword` in every backend lower-case and split text exactly like
 * the reference evaluator (String#toLowerCase, textWords), whatever the database's locale.
 * ASCII strings need no shadow: lower-casing and splitting them in SQL (`sx_lower`, `sx_words`,
 * migration 0002) is exact. Only strings with other characters get `{l, w}`, computed here.
 */
import { isAscii, textWords } from './dsl/text.js';

/** The record's searchable fields that are present (missing stays missing). */
export function projectSearchable(searchable: Readonly<Record<string, unknown>>, data: Record<string, unknown>): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  for (const field of Object.keys(searchable)) {
    if (Object.hasOwn(data, field) && data[field] !== undefined) doc[field] = data[field];
  }
  return doc;
}

/** The shadow of one string. */
export interface TextShadow {
  readonly l: string;
  readonly w: readonly string[];
}

/** The shadow of a string that is not all ASCII, from its lower-cased text and its words (textWords). */
export const shadowOf = (lower: string, words: readonly string[]): TextShadow => ({ l: lower, w: [...new Set(words)] });

/** The shadow of one string: undefined when it is all ASCII (SQL lower-cases and splits those exactly). */
export const stringShadow = (s: string): TextShadow | undefined => (isAscii(s) ? undefined : shadowOf(s.toLowerCase(), textWords(s)));

/**
 * The sparse shadow of a value: strings with non-ASCII characters become {@link TextShadow}s;
 * objects keep only keys with a shadow, arrays keep positions (null where nothing is needed);
 * `undefined` when the value needs no shadow at all (the usual case). Written for the page
 * writer's hot path: no intermediate arrays or entry lists for the values that need nothing.
 */
export function textShadow(value: unknown): unknown {
  if (typeof value === 'string') return stringShadow(value);
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    let items: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const sh = textShadow(value[i]);
      if (sh !== undefined) (items ??= new Array<unknown>(value.length).fill(null))[i] = sh;
    }
    return items;
  }
  return shadowOfKeys(value as Record<string, unknown>, Object.keys(value));
}

function shadowOfKeys(data: Record<string, unknown>, keys: Iterable<string>): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const k of keys) {
    if (!Object.hasOwn(data, k)) continue;
    const sh = textShadow(data[k]);
    if (sh !== undefined) (out ??= {})[k] = sh;
  }
  return out;
}

/** The shadow of a record's searchable projection, without building the projection. */
export function searchableShadow(searchable: Readonly<Record<string, unknown>>, data: Record<string, unknown>): Record<string, unknown> | undefined {
  return shadowOfKeys(data, Object.keys(searchable));
}
