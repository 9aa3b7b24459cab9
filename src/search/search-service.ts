/**
 * The `search` action: validate, verify the cursor, run on the backend, page, project, time.
 */
import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import type { DB } from '../store/db.js';
import type { SearchBackend } from './backend.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { parseSearchParams } from './dsl/parse.js';
import { queryFingerprint } from './fingerprint.js';
import { projector } from './reference/project.js';
import { searchTarget } from './target.js';

/** The response body of a search (overview §4.2). */
export interface SearchResponse {
  hits: { id: string; score: number; data: Record<string, unknown> }[];
  next_cursor: string | null;
  took_ms: number;
}

/** What a search needs. */
export interface SearchDeps {
  readonly db: Kysely<DB>;
  /** Where searches run when given (a pool with a statement timeout); else `db`. */
  readonly searchDb?: Kysely<DB>;
  readonly backend: SearchBackend;
  readonly cursorSecret: string;
}

/** Runs a search on one connector's synced copy; the connector id scopes every query. */
export async function runSearch(
  deps: SearchDeps,
  connector: { id: string; connectorType: string },
  entity: string,
  params: unknown,
): Promise<SearchResponse> {
  const started = performance.now();
  const target = searchTarget(connector.connectorType, entity);
  const query = parseSearchParams(target, params);
  // Only a cursor in or out needs the query's fingerprint: most searches fit one page (3 % of an
  // execute request's CPU, profiled, went to hashing it).
  let fingerprint: string | undefined;
  const fingerprintOf = (): string => (fingerprint ??= queryFingerprint(connector.id, entity, query));
  const after = query.cursor === null ? null : decodeCursor(deps.cursorSecret, fingerprintOf(), query.cursor);
  const rows = await deps.backend.search(deps.searchDb ?? deps.db, { target, connectorId: connector.id, query, after, size: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const next = rows.length > query.limit && last !== undefined ? encodeCursor(deps.cursorSecret, fingerprintOf(), last.sortValues) : null;
  const project = projector(target, query.fields);
  return {
    hits: page.map((h) => ({ id: h.id, score: h.score, data: project(h.doc) })),
    next_cursor: next,
    took_ms: Math.round((performance.now() - started) * 1000) / 1000,
  };
}
