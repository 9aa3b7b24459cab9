/** Assertions that the store, the sandbox and the search index agree exactly. */
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { getConnectorDef, getEntityDef } from '../../../src/connectors/catalog/index.js';
import { recordIdOf, withDerivedFields } from '../../../src/connectors/planner.js';
import type { Harness } from './harness.js';

/** Live and tombstoned rows of one connector entity, by record id. */
export async function storeRows(h: Harness, connectorId: string, entity: string): Promise<Map<string, { hash: string; deleted: boolean; data: Record<string, unknown> }>> {
  const rows = await h.deps.db.selectFrom('records').select(['record_id', 'content_hash', 'deleted_at', 'data']).where('connector_id', '=', connectorId).where('entity', '=', entity).execute();
  return new Map(rows.map((r) => [r.record_id, { hash: r.content_hash, deleted: r.deleted_at !== null, data: r.data }]));
}

/** Every live sandbox record of an entity (all partitions). */
export function sandboxRecords(h: Harness, connectorType: string, entity: string): Map<string, Record<string, unknown>> {
  const def = getEntityDef(getConnectorDef(connectorType), entity);
  const all = h.sandbox.records(connectorType, entity).data;
  return new Map(all.map((r) => [String(recordIdOf(def, r)), r]));
}

/** The store holds exactly the sandbox's live records, each at its latest content; nothing else is live. */
export async function expectStoreEqualsSandbox(h: Harness, connectorId: string, connectorType: string, entity: string): Promise<void> {
  const store = await storeRows(h, connectorId, entity);
  const sandbox = sandboxRecords(h, connectorType, entity);
  const live = [...store.entries()].filter(([, r]) => !r.deleted).map(([id]) => id).sort();
  expect(live.length, 'live record count').toBe(sandbox.size);
  expect(live).toEqual([...sandbox.keys()].sort());
  // What the worker stores is the record as read plus its derived searchable fields.
  const entityDef = getEntityDef(getConnectorDef(connectorType), entity);
  const stale = [...sandbox.entries()].filter(([id, rec]) => store.get(id)?.hash !== createHash('md5').update(JSON.stringify(withDerivedFields(entityDef, rec))).digest('hex'));
  expect(stale.map(([id]) => id), 'records whose stored version differs from the sandbox').toEqual([]);
}

/** Pages through `search` with no filter and returns every hit id. */
export async function searchAllIds(h: Harness, token: string, connectorId: string, entity: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${connectorId}/execute`,
      headers: { authorization: `Bearer ${token}` },
      payload: { entity, action: 'search', params: { query: {}, limit: 10000, fields: ['id'], ...(cursor === null ? {} : { cursor }) } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { hits: { id: string }[]; next_cursor: string | null };
    ids.push(...body.hits.map((x) => x.id));
    cursor = body.next_cursor;
  } while (cursor !== null);
  return ids;
}

/** The index answers with exactly the store's live records, each once. */
export async function expectIndexEqualsStore(h: Harness, token: string, connectorId: string, entity: string): Promise<void> {
  const store = await storeRows(h, connectorId, entity);
  const live = [...store.entries()].filter(([, r]) => !r.deleted).map(([id]) => id).sort();
  await h.refresh();
  const found = await searchAllIds(h, token, connectorId, entity);
  expect(new Set(found).size, 'duplicate hits').toBe(found.length);
  expect([...found].sort()).toEqual(live);
}
