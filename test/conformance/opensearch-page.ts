/** The OpenSearch backend as a conformance PageFn over records shipped as the indexer would. */
import { randomUUID } from 'node:crypto';
import type { SearchTarget } from '../../src/search/dsl/ast.js';
import { projectSearchable } from '../../src/search/doc.js';
import type { OpenSearchBackend } from '../../src/search/opensearch/opensearch-backend.js';
import type { Db } from '../../src/store/db.js';
import { pageOf, type PageFn } from './run-case.js';

/** The OpenSearch backend keeps nothing in Postgres: it never touches the handle. */
const noDb = undefined as unknown as Db;

type Rec = { readonly id: string; readonly doc: Record<string, unknown> };

/** Ships records as the indexer would (searchable projection, one version) under a connector. */
export async function shipRecords(backend: OpenSearchBackend, target: SearchTarget, connectorId: string, recs: readonly Rec[], version = '2'): Promise<void> {
  const index = await backend.ensureIndex(noDb, target);
  const changes = recs.map((r) => ({ recordId: r.id, version, doc: projectSearchable(target.searchable, r.doc) }));
  for (let i = 0; i < changes.length; i += 500) await backend.apply(noDb, index, connectorId, changes.slice(i, i + 500));
}

/** Deletes records at `version` under a connector. */
export async function shipDeletes(backend: OpenSearchBackend, target: SearchTarget, connectorId: string, ids: readonly string[], version: string): Promise<void> {
  const index = await backend.ensureIndex(noDb, target);
  await backend.apply(noDb, index, connectorId, ids.map((recordId) => ({ recordId, version, doc: null })));
}

/** A conformance PageFn over one connector's documents. */
export function openSearchPage(backend: OpenSearchBackend, target: SearchTarget, connectorId: string): PageFn {
  return async (query, after) => {
    const rows = await backend.search(noDb, { target, connectorId, query, after, size: query.limit + 1 });
    return pageOf(target, query, rows);
  };
}

/** Ships `records` as a fresh connector (its own tenant of the shared index); returns its PageFn. */
export async function loadOpenSearch(backend: OpenSearchBackend, target: SearchTarget, records: readonly Rec[]): Promise<PageFn> {
  const connectorId = randomUUID();
  await shipRecords(backend, target, connectorId, records);
  return openSearchPage(backend, target, connectorId);
}
