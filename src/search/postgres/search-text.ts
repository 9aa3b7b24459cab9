/**
 * What a record gives the Postgres text indexes, from one walk of its searchable fields: `text_lc`
 * for the trigram index (text-index.ts), every string lower-cased as the reference does
 * (String#toLowerCase), one per line; and its words grouped by the path of their string
 * (word-index.ts): object keys from the record down, array levels skipped.
 * Pure: no client, no SQL execution.
 */
import { splitWords, type WordGroup } from './word-index.js';

/** A record's search text and words. */
export interface SearchText {
  readonly text: string;
  readonly words: WordGroup[];
}

function walk(value: unknown, path: string, lines: string[], words: WordGroup[]): void {
  if (typeof value === 'string') {
    // Lower-cased per string: the same text as lower-casing the joined lines (a line break ends
    // the context of a final sigma), and the words split from it.
    const lower = value.toLowerCase();
    lines.push(lower);
    const found = splitWords(lower);
    if (found.length > 0) words.push({ path, words: found });
  } else if (Array.isArray(value)) {
    for (const v of value) walk(v, path, lines, words);
  } else if (typeof value === 'object' && value !== null) {
    // Keys sorted: jsonb stores objects in its own key order, so a record read back from the store
    // (a reindex) must give the text its sync wrote, or every row would be rewritten for nothing.
    for (const k of Object.keys(value).sort()) walk((value as Record<string, unknown>)[k], `${path}.${k}`, lines, words);
  }
}

/** The search text and words of a record's searchable fields. */
export function recordSearchText(searchable: Readonly<Record<string, unknown>>, data: Record<string, unknown>): SearchText {
  const lines: string[] = [];
  const words: WordGroup[] = [];
  for (const field of Object.keys(searchable)) if (Object.hasOwn(data, field)) walk(data[field], field, lines, words);
  return { text: lines.join('\n'), words };
}

/** `text_lc` of a record. */
export const recordText = (searchable: Readonly<Record<string, unknown>>, data: Record<string, unknown>): string => recordSearchText(searchable, data).text;

/** The words of a record, per string with its path; repeats stay (hashing sorts and drops them). */
export const recordWords = (searchable: Readonly<Record<string, unknown>>, data: Record<string, unknown>): WordGroup[] => recordSearchText(searchable, data).words;
