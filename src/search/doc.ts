/**
 * What an index stores for a record: its searchable projection, and a "text shadow" of it —
 * the same shape with every string replaced by `{l: lower-cased, w: words}` — so `like`,
 * `fuzzy` and `keyword` in every backend lower-case and split text exactly like the reference
 * evaluator (String#toLowerCase, textWords), at index time, whatever the database's locale.
 */
import { textWords } from './dsl/text.js';

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

/** Same shape as `value`; strings become {@link TextShadow}s, other scalars become null. */
export function textShadow(value: unknown): unknown {
  if (typeof value === 'string') return { l: value.toLowerCase(), w: [...new Set(textWords(value))] } satisfies TextShadow;
  if (Array.isArray(value)) return value.map(textShadow);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = textShadow(v);
    return out;
  }
  return null;
}

