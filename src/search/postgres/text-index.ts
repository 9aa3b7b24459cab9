/**
 * The trigram pre-filter of the Postgres backend (migration 0012). Each record carries
 * `text_lc`: every string of its searchable projection, lower-cased as the reference does
 * (String#toLowerCase), one per line, under a trigram GIN that also keys the connector. A `like`
 * that must hold means each literal run of 3+ characters of its pattern occurs in some string of
 * the record, hence in `text_lc`; a `keyword` that must hold means one of its terms does. Those
 * substring tests find the candidates through the index, and the exact predicate, unchanged,
 * decides: the pre-filter only ever removes records the exact filter would reject too.
 * Pure: no client, no SQL execution.
 */
import type { FilterNode } from '../dsl/ast.js';
import { anchoredLikeTokens } from '../dsl/like.js';

/** The shortest literal run worth a trigram lookup (pg_trgm needs 3 characters). */
const MIN_RUN = 3;

/** Every string in a value, in document order (arrays and objects walked). */
function collectStrings(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, out);
  // Keys sorted: jsonb stores objects in its own key order, so a record read back from the store
  // (a reindex) must give the text its sync wrote, or every row would be rewritten for nothing.
  else if (typeof value === 'object' && value !== null) for (const k of Object.keys(value).sort()) collectStrings((value as Record<string, unknown>)[k], out);
}

/** `text_lc` of a record: the lower-cased strings of its searchable fields, one per line. */
export function recordText(searchable: Readonly<Record<string, unknown>>, data: Record<string, unknown>): string {
  const strings: string[] = [];
  for (const field of Object.keys(searchable)) if (Object.hasOwn(data, field)) collectStrings(data[field], strings);
  return strings.join('\n').toLowerCase();
}

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

/** Substrings one of which an exact string match implies; null when a value cannot be looked up. */
function exactAlternatives(values: readonly unknown[]): string[][] | null {
  const out: string[][] = [];
  for (const v of values) {
    if (typeof v !== 'string' || [...v].length < MIN_RUN) return null;
    out.push([v.toLowerCase()]);
  }
  return out.length === 0 ? null : out;
}

/**
 * What a filter requires of `text_lc`: every returned requirement holds for each record the
 * filter matches. Only conjunctions are followed (`and`, and `any`, whose element lies inside
 * the record); `or` and `not` require nothing here. An exact string match (`eq`, `in`,
 * `contains`) requires its value, lower-cased, as a substring; `lookup` fields are left to
 * their own index (lookup-index.ts), which answers them better.
 */
export function textRequirements(node: FilterNode, lookup: readonly string[] = []): TextRequirement[] {
  const onLookup = 'path' in node && node.path.sub.length === 0 && lookup.includes(node.path.field);
  switch (node.op) {
    case 'eq':
    case 'contains': {
      const alts = onLookup ? null : exactAlternatives([node.value]);
      return alts === null ? [] : [alts];
    }
    case 'in': {
      const alts = onLookup ? null : exactAlternatives(node.values);
      return alts === null ? [] : [alts];
    }
    case 'like': {
      const runs = likeRuns(node.pattern);
      return runs.length === 0 ? [] : [[runs]];
    }
    case 'keyword':
      // Any term may be the one found: usable only if every term is long enough to look up.
      return node.terms.every((t) => [...t].length >= MIN_RUN && !t.includes('\n')) ? [node.terms.map((t) => [t])] : [];
    case 'and':
      return node.filters.flatMap((f) => textRequirements(f, lookup));
    case 'any':
      // Element paths are keys of the array's objects, never lookup fields.
      return textRequirements(node.filter);
    default:
      return [];
  }
}

/** A substring as a LIKE pattern over `text_lc` (`%`, `_`, `\` taken literally). */
export function containsPattern(s: string): string {
  return `%${s.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
}
