/**
 * Index administration: versioned indexes behind one alias per (connector type, entity), created
 * idempotently, and the mapping of OpenSearch client failures onto AppErrors.
 */
import type { Client } from '@opensearch-project/opensearch';
import { AppError } from '../../errors.js';
import type { SearchTarget } from '../dsl/ast.js';
import { indexMappings, indexSettings, type IndexLayout } from './mapping.js';
import { generationOf } from './names.js';

/** Status, error type and reason of a client failure, when it has a response. */
export function responseOf(e: unknown): { status: number | null; type: string | null; reason: string | null } {
  const meta = (e as { meta?: { statusCode?: number; body?: { error?: { type?: string; reason?: string } } } }).meta;
  const status = (e as { statusCode?: number }).statusCode ?? meta?.statusCode ?? null;
  return { status, type: meta?.body?.error?.type ?? null, reason: meta?.body?.error?.reason ?? null };
}

/**
 * A client failure as an AppError: 429 rate_limited and 5xx/connection unavailable retry, others
 * do not. `what` is the action in words tenants may read; `names` (index and alias names) are
 * internals, kept to the error's detail with the client's own message (operator-decisions 12b).
 */
export function toAppError(e: unknown, what: string, names?: string): AppError {
  if (e instanceof AppError) return e;
  const { status, type, reason } = responseOf(e);
  const detail = `${names === undefined ? '' : `${names}: `}${e instanceof Error ? e.message : String(e)}${reason === null ? '' : `: ${reason}`}`;
  if (status === 429) return new AppError('rate_limited', `OpenSearch is overloaded (${what})`, { retryable: true, retryAfterSec: 1, upstreamStatus: 429, detail, cause: e });
  if (status === null || status >= 500) {
    return new AppError('unavailable', `OpenSearch is unavailable (${what}); try again`, { retryable: true, retryAfterSec: 1, ...(status === null ? {} : { upstreamStatus: status }), detail, cause: e });
  }
  return new AppError('internal', `OpenSearch rejected ${what} (${status}${type === null ? '' : ` ${type}`})`, { upstreamStatus: status, detail, cause: e });
}

/** Lucene limits a valid query can still hit: the caller's query is too big, not the cluster broken. */
const QUERY_LIMITS = ['too_complex_to_determinize_exception', 'too_many_nested_clauses', 'too_many_clauses'];

/** A failed search as an AppError: query-size limits are `invalid_query`, the rest as toAppError. */
export function searchError(e: unknown): AppError {
  const body = JSON.stringify((e as { meta?: { body?: unknown } }).meta?.body ?? null);
  const limit = QUERY_LIMITS.find((type) => body.includes(`"${type}"`));
  if (limit !== undefined) {
    const hint = limit.startsWith('too_complex') ? 'a like pattern with many wildcards' : 'a filter with many operators';
    const what = limit.startsWith('too_complex') ? '' : ' of 1,024 query clauses (indices.query.bool.max_clause_count; a fuzzy word costs up to 8, a keyword word 2)';
    return new AppError('invalid_query', `the query exceeds a limit${what} of the OpenSearch index (${limit}); simplify ${hint}`, { path: 'query.filter', cause: e });
  }
  return toAppError(e, 'a search');
}

/** Orders index names of `alias` newest generation first (a name that is no generation of it last). */
function newestFirst(alias: string): (a: string, b: string) => number {
  return (a, b) => (generationOf(alias, b) ?? -1) - (generationOf(alias, a) ?? -1);
}

/** Every index an alias points to, newest generation first (none when the alias does not exist). */
export async function aliasIndexes(client: Client, alias: string): Promise<string[]> {
  try {
    const res = await client.indices.getAlias({ name: alias }, { ignore: [404] });
    if (res.statusCode === 404) return [];
    return Object.keys(res.body as Record<string, unknown>).sort(newestFirst(alias));
  } catch (e) {
    throw toAppError(e, 'resolving the index alias', `alias ${alias}`);
  }
}

/** The concrete index an alias points to, or null when the alias does not exist. */
export async function resolveAlias(client: Client, alias: string): Promise<string | null> {
  // An alias points to one index (swaps are atomic and remove every other); should two ever show, the newest wins.
  return (await aliasIndexes(client, alias))[0] ?? null;
}

/** The document format of an index's mappings (`_meta.sx_format`; 1 for an index made before formats were recorded). */
export function formatOfMappings(mappings: unknown): number {
  const format = (mappings as { _meta?: { sx_format?: unknown } } | undefined)?._meta?.sx_format;
  return typeof format === 'number' && Number.isInteger(format) && format >= 1 ? format : 1;
}

/** The document format of an index, or null when there is no such index. */
export async function indexFormat(client: Client, index: string): Promise<number | null> {
  try {
    const res = await client.indices.getMapping({ index }, { ignore: [404] });
    if (res.statusCode === 404) return null;
    return formatOfMappings((res.body as Record<string, { mappings?: unknown }>)[index]?.mappings);
  } catch (e) {
    throw toAppError(e, 'reading the index mapping', `index ${index}`);
  }
}

/**
 * The indexes an alias points to, newest generation first, each with its document format: one
 * request (the alias's mappings), where reading the alias and then its index's mapping took two.
 * None when there is no such alias. An index that merely bears the alias's name (a write that
 * reached the name with no alias there creates one) is no generation of it, and is left out.
 */
export async function aliasFormats(client: Client, alias: string): Promise<{ index: string; format: number }[]> {
  try {
    const res = await client.indices.getMapping({ index: alias }, { ignore: [404] });
    if (res.statusCode === 404) return [];
    const order = newestFirst(alias);
    return Object.entries(res.body as Record<string, { mappings?: unknown }>)
      .filter(([index]) => generationOf(alias, index) !== null)
      .sort(([a], [b]) => order(a, b))
      .map(([index, found]) => ({ index, format: formatOfMappings(found.mappings) }));
  } catch (e) {
    throw toAppError(e, 'resolving the index alias', `alias ${alias}`);
  }
}

/** Creates a versioned index with the target's settings and mappings; an existing one is fine. */
export async function createIndex(client: Client, index: string, target: SearchTarget, layout: IndexLayout): Promise<void> {
  try {
    await client.indices.create({ index, body: { settings: indexSettings(target, layout), mappings: indexMappings(target) } });
  } catch (e) {
    if (responseOf(e).type === 'resource_already_exists_exception') return;
    throw toAppError(e, 'creating the index', `index ${index}`);
  }
}

/** Adds the target's current fields to an existing index (mappings only ever grow). */
export async function putMapping(client: Client, index: string, target: SearchTarget): Promise<void> {
  const { properties } = indexMappings(target);
  try {
    // Plain JSON mapping objects; the client's `Property` union cannot express them statically.
    await client.indices.putMapping({ index, body: { properties } as never });
  } catch (e) {
    throw toAppError(e, 'updating the index mapping', `index ${index}`);
  }
}

/** Points the alias at `index`, removing it from every index of `from` in the same atomic request. */
export async function swapAlias(client: Client, alias: string, from: readonly string[], index: string): Promise<void> {
  const actions: Record<string, unknown>[] = [...from.filter((f) => f !== index).map((f) => ({ remove: { index: f, alias } })), { add: { index, alias } }];
  try {
    await client.indices.updateAliases({ body: { actions } });
  } catch (e) {
    throw toAppError(e, 'swapping the index alias', `alias ${alias} → ${index}`);
  }
}

/** The highest generation among the alias's versioned indexes (0 when none exists). */
export async function highestGeneration(client: Client, alias: string): Promise<number> {
  try {
    const res = await client.indices.get({ index: `${alias}__*`, allow_no_indices: true, expand_wildcards: 'all' });
    return Object.keys(res.body as Record<string, unknown>).reduce((max, name) => Math.max(max, generationOf(alias, name) ?? 0), 0);
  } catch (e) {
    throw toAppError(e, 'listing the indexes', `alias ${alias}`);
  }
}
