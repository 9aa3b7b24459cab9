/** Assertions that the store, the sandbox and the search index agree exactly. */
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import { getConnectorDef, getEntityDef } from '../../../src/connectors/catalog/index.js';
import { recordIdOf, withDerivedFields } from '../../../src/connectors/planner.js';
import { waitIndexCaughtUp } from '../../../src/search/index-lag.js';
import { searchTarget } from '../../../src/search/target.js';
import { projectDoc } from '../../../src/search/reference/project.js';
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
  const stale = [...sandbox.entries()].filter(([id, rec]) => store.get(id)?.hash !== createHash('sha1').update(JSON.stringify(withDerivedFields(entityDef, rec))).digest('hex'));
  expect(stale.map(([id]) => id), 'records whose stored version differs from the sandbox').toEqual([]);
}

type Hit = { id: string; data: Record<string, unknown> };

/** Pages through `search` with no filter and returns every hit (`fields` as the API takes them). */
export async function searchAll(h: Harness, token: string, connectorId: string, entity: string, fields?: unknown): Promise<Hit[]> {
  const hits: Hit[] = [];
  let cursor: string | null = null;
  do {
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${connectorId}/execute`,
      headers: { authorization: `Bearer ${token}` },
      payload: { entity, action: 'search', params: { query: {}, limit: 10000, ...(fields === undefined ? {} : { fields }), ...(cursor === null ? {} : { cursor }) } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { hits: Hit[]; next_cursor: string | null };
    hits.push(...body.hits);
    cursor = body.next_cursor;
  } while (cursor !== null);
  return hits;
}

/** Pages through `search` with no filter and returns every hit id. */
export async function searchAllIds(h: Harness, token: string, connectorId: string, entity: string): Promise<string[]> {
  return (await searchAll(h, token, connectorId, entity, ['id'])).map((x) => x.id);
}

/**
 * Every hit once the index shows `expected` of them, or after 10 s (the caller's comparison then
 * fails). OpenSearch is near-real-time: a batch acknowledged right after an index write block
 * lifted was missing from searches made just after an explicit refresh in 4 of 8 runs, and
 * present in all 8 a refresh 1.5 s later (session 25). Nothing is dropped; it
 * shows a moment later.
 */
async function visibleHits(h: Harness, token: string, connectorId: string, entity: string, expected: number): Promise<Hit[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await h.refresh();
    const found = await searchAll(h, token, connectorId, entity);
    if (found.length === expected || Date.now() >= deadline) return found;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * The index answers with exactly the store's live records, each once, each with the content the
 * store has now (an update that never reached the index, or a resurrected older version, differs).
 */
export async function expectIndexEqualsStore(h: Harness, token: string, connectorId: string, entity: string): Promise<void> {
  const store = await storeRows(h, connectorId, entity);
  const live = [...store.entries()].filter(([, r]) => !r.deleted).map(([id]) => id).sort();
  const connector = await h.deps.db.selectFrom('connectors').select('connector_type').where('id', '=', connectorId).executeTakeFirstOrThrow();
  const target = searchTarget(connector.connector_type, entity);
  // A run commits, then ships: its status may say succeeded a moment before its last changes
  // (tombstones included) reach the index. Users see that lag too; the comparison waits it out.
  expect(await waitIndexCaughtUp(h.deps.db, h.deps.backend, connectorId, target, 30_000), 'the index caught up with the store within 30 s').toBe(true);
  const found = await visibleHits(h, token, connectorId, entity, live.length);
  expect(new Set(found.map((x) => x.id)).size, 'duplicate hits').toBe(found.length);
  expect(found.map((x) => x.id).sort()).toEqual(live);
  const stale = found.filter((x) => !isDeepStrictEqual(x.data, projectDoc(target, null, store.get(x.id)?.data ?? {})));
  expect(stale.map((x) => x.id), 'hits whose content differs from the store').toEqual([]);
}
