/**
 * An OpenSearch reindex while a run keeps writing and shipping, on a real Postgres. Until the
 * alias swaps, the run ships to the old index; what it committed after the reindex's pass over
 * its connector must still reach the new index. OpenSearch is the recording HTTP server of the
 * backend's unit tests: it answers alias lookups with the alias as the test has swapped it so
 * far, and records which index each bulk action was sent to.
 */
import { describe, expect, it } from 'vitest';
import { reindexEntity } from '../../src/app/reindex.js';
import { shipAll } from '../../src/search/indexer.js';
import { documentId } from '../../src/search/opensearch/names.js';
import { searchTarget } from '../../src/search/target.js';
import { lockEntity, upsertPage } from '../../src/store/records-repo.js';
import { acceptBulk, type Recorded, type Reply } from '../unit/search/opensearch/fake-http.js';
import { recordingOpenSearch } from './helpers/recording-opensearch.js';

const ALIAS = 'payments__customers';
const OLD = `${ALIAS}__1`;
const NEW = `${ALIAS}__2`;
const TARGET = searchTarget('payments', 'customers');

/** One bulk action as the engine received it. */
interface Sent {
  readonly index: string;
  readonly id: string;
  readonly version: number;
}

describe('reindex on OpenSearch while a run ships', () => {
  const rec = recordingOpenSearch((req) => answer(req));
  let aliasAt = OLD;
  /** Runs once, when the alias swap request arrives and before it takes effect. */
  let beforeSwap: (() => Promise<void>) | null = null;
  const sent: Sent[] = [];

  const answer = async (req: Recorded): Promise<Reply> => {
    const path = decodeURIComponent(req.path);
    if (req.method === 'GET' && path === `/_alias/${ALIAS}`) return { status: 200, body: { [aliasAt]: { aliases: { [ALIAS]: {} } } } };
    if (req.method === 'GET' && path === `/${ALIAS}__*`) return { status: 200, body: { [OLD]: {} } };
    if (req.method === 'GET' && (path === `/${OLD}` || path === `/${NEW}`)) return { status: 200, body: { [path.slice(1)]: { settings: { index: { uuid: `uuid-of-${path.slice(1)}` } } } } };
    if (req.method === 'POST' && path === '/_aliases') {
      const hook = beforeSwap;
      beforeSwap = null;
      await hook?.();
      aliasAt = NEW;
      return { status: 200, body: { acknowledged: true } };
    }
    if (path !== '/_bulk') return { status: 200, body: { acknowledged: true } };
    return acceptBulk(req.body, (_op, meta) => sent.push({ index: meta._index, id: meta._id, version: meta.version }));
  };

  const writeRecords = (connectorId: string, ids: readonly number[], tag: string): Promise<unknown> =>
    rec.h.deps.db.transaction().execute(async (tx) => {
      await lockEntity(tx, connectorId, 'customers');
      return upsertPage(tx, connectorId, 'customers', ids.map((i) => ({ id: `cus_${i}`, data: { id: `cus_${i}`, email: `c${i}@example.com`, description: tag } })));
    });

  it('changes a run shipped to the old index after the reindex passed its connector reach the new index', async () => {
    const deps = { ...rec.h.deps, backend: rec.backend() };
    const { id } = await rec.h.createConnector(await rec.h.token());
    await writeRecords(id, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 'v1');
    await shipAll(deps, id, TARGET);
    // The run commits an update and new records, and ships them to the alias, which still names the old index.
    beforeSwap = async () => {
      await writeRecords(id, [0, 10, 11, 12], 'v2');
      await shipAll(deps, id, TARGET);
    };
    sent.length = 0;
    const result = await reindexEntity(deps, 'payments', 'customers');
    expect(result).toMatchObject({ backend: 'opensearch', index: NEW });
    expect(beforeSwap).toBeNull();
    expect(sent.filter((s) => s.index === OLD).map((s) => s.id).sort()).toEqual(['cus_0', 'cus_10', 'cus_11', 'cus_12'].map((r) => documentId(id, r)).sort());

    const rows = await rec.h.deps.db.selectFrom('records').select(['record_id', 'version']).where('connector_id', '=', id).execute();
    const newest = new Map<string, number>();
    for (const s of sent.filter((x) => x.index === NEW)) newest.set(s.id, Math.max(newest.get(s.id) ?? 0, s.version));
    // Every record, at its stored version, in the index the alias now names.
    expect(Object.fromEntries(newest)).toEqual(Object.fromEntries(rows.map((r) => [documentId(id, r.record_id), Number(r.version)])));
  });
});
