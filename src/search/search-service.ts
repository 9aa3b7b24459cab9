/**
 * The `search` action: validate, verify the cursor, run on the backend, page, project, time;
 * as objects (in process) or as the JSON text of the answer (the HTTP API).
 */
import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import type { DB } from '../store/db.js';
import type { BackendHit, SearchBackend } from './backend.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { parseSearchParams } from './dsl/parse.js';
import { queryFingerprint } from './fingerprint.js';
import type { SearchQuery, SearchTarget } from './dsl/ast.js';
import { jsonProjector } from './json-projection.js';
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

/** One page of a search: its hits as the backend returned them, the next cursor, and the target and query they answer. */
interface SearchPage {
  readonly started: number;
  readonly hits: readonly BackendHit[];
  readonly next: string | null;
  readonly target: SearchTarget;
  readonly query: SearchQuery;
}

async function searchPage(deps: SearchDeps, connector: { id: string; connectorType: string }, entity: string, params: unknown): Promise<SearchPage> {
  const started = performance.now();
  const target = searchTarget(connector.connectorType, entity);
  const query = parseSearchParams(target, params);
  // Only a cursor in or out needs the query's fingerprint: most searches fit one page (3 % of an
  // execute request's CPU, profiled, went to hashing it).
  let fingerprint: string | undefined;
  const fingerprintOf = (): string => (fingerprint ??= queryFingerprint(connector.id, entity, query));
  const after = query.cursor === null ? null : decodeCursor(deps.cursorSecret, fingerprintOf(), query.cursor);
  const rows = await deps.backend.search(deps.searchDb ?? deps.db, { target, connectorId: connector.id, query, after, size: query.limit + 1 });
  const hits = rows.slice(0, query.limit);
  const last = hits[hits.length - 1];
  const next = rows.length > query.limit && last !== undefined ? encodeCursor(deps.cursorSecret, fingerprintOf(), last.sortValues) : null;
  return { started, hits, next, target, query };
}

const tookMs = (started: number): number => Math.round((performance.now() - started) * 1000) / 1000;

/** Runs a search on one connector's synced copy; the connector id scopes every query. */
export async function runSearch(deps: SearchDeps, connector: { id: string; connectorType: string }, entity: string, params: unknown): Promise<SearchResponse> {
  const page = await searchPage(deps, connector, entity, params);
  const project = projector(page.target, page.query.fields);
  return {
    hits: page.hits.map((h) => ({ id: h.id, score: h.score, data: project(h.doc) })),
    next_cursor: page.next,
    took_ms: tookMs(page.started),
  };
}

/**
 * {@link runSearch}'s answer as the JSON text of its {@link SearchResponse}, for the HTTP API:
 * documents a backend read as text are projected and spliced without being parsed.
 */
export async function runSearchJson(deps: SearchDeps, connector: { id: string; connectorType: string }, entity: string, params: unknown): Promise<string> {
  const page = await searchPage(deps, connector, entity, params);
  const project = projector(page.target, page.query.fields);
  const projectText = jsonProjector(page.target, page.query.fields, project);
  const hits = page.hits.map((h) => {
    const data = h.json !== undefined ? projectText(h.json) : JSON.stringify(project(h.doc));
    return `{"id":${JSON.stringify(h.id)},"score":${JSON.stringify(h.score)},"data":${data}}`;
  });
  return `{"hits":[${hits.join(',')}],"next_cursor":${JSON.stringify(page.next)},"took_ms":${JSON.stringify(tookMs(page.started))}}`;
}
