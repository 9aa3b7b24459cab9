/** The Postgres backend as a conformance PageFn over records written through the store. */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { SearchTarget } from '../../src/search/dsl/ast.js';
import { PostgresSearchBackend } from '../../src/search/postgres/postgres-backend.js';
import type { DB } from '../../src/store/db.js';
import { upsertPage } from '../../src/store/records-repo.js';
import { ensureOrganization } from '../../src/store/tokens-repo.js';
import { lookupOf } from '../../src/search/postgres/lookup-index.js';
import { withShadows } from '../../src/worker/page-writer.js';
import { pageOf, type PageFn } from './run-case.js';

/** Inserts a bare connector row (records reference one). */
export async function insertConnectorRow(db: Kysely<DB>, connectorType: string): Promise<string> {
  const org = await ensureOrganization(db, 'conformance');
  const id = randomUUID();
  await db.insertInto('connectors').values({ id, organization_id: org, external_user_id: 'u', connector_type: connectorType, name: 'c', secret_ciphertext: Buffer.alloc(0), secret_key_id: 'none', auth_method: 'token', replication_config: '{}' }).execute();
  return id;
}

/** Writes `records` as a fresh connector's entity; returns a PageFn searching them (on `searchDb`, by default the same pool, with `backend`). */
export async function loadPostgres(db: Kysely<DB>, target: SearchTarget, records: readonly { id: string; doc: Record<string, unknown> }[], searchDb: Kysely<DB> = db, backend = new PostgresSearchBackend()): Promise<PageFn> {
  return (await loadPostgresConnector(db, target, records, searchDb, backend)).page;
}

/** {@link loadPostgres}, with the connector it wrote the records as. */
export async function loadPostgresConnector(db: Kysely<DB>, target: SearchTarget, records: readonly { id: string; doc: Record<string, unknown> }[], searchDb: Kysely<DB> = db, backend = new PostgresSearchBackend()): Promise<{ connectorId: string; page: PageFn }> {
  const connectorId = await insertConnectorRow(db, target.connectorType);
  await backend.ensureIndex(db, target);
  await upsertPage(db, connectorId, target.entity, withShadows(records.map((r) => ({ id: r.id, data: r.doc })), target.searchable, lookupOf(target)));
  const page: PageFn = async (query, after) => {
    const rows = await backend.search(searchDb, { target, connectorId, query, after, size: query.limit + 1 });
    return pageOf(target, query, rows);
  };
  return { connectorId, page };
}
