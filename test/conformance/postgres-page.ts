/** The Postgres backend as a conformance PageFn over an index loaded with given records. */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { SearchTarget } from '../../src/search/dsl/ast.js';
import { PostgresSearchBackend } from '../../src/search/postgres/postgres-backend.js';
import { projectDoc } from '../../src/search/reference/project.js';
import type { DB } from '../../src/store/db.js';
import type { PageFn } from './run-case.js';

/** Loads `records` into a fresh tenant of the target's index; returns a PageFn over it. */
export async function loadPostgres(db: Kysely<DB>, target: SearchTarget, records: readonly { id: string; doc: Record<string, unknown> }[]): Promise<PageFn> {
  const backend = new PostgresSearchBackend();
  const connectorId = randomUUID();
  const index = await backend.ensureIndex(db, target);
  await backend.apply(db, index, connectorId, records.map((r, i) => ({ recordId: r.id, version: String(i + 1), doc: r.doc })));
  return async (query, after) => {
    const rows = await backend.search(db, { target, connectorId, query, after, size: query.limit + 1 });
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return {
      hits: page.map((h) => ({ id: h.id, score: h.score, data: projectDoc(target, query.fields, h.doc) })),
      after: rows.length > query.limit && last !== undefined ? last.sortValues : null,
    };
  };
}
