/**
 * The conformance table (test/conformance) and random queries on a REAL OpenSearch, compared
 * with the reference evaluator: ids in order, scores, paging. The cluster comes from
 * opensearch-setup.ts (OPENSEARCH_URL, a container, or the local node). See docs/opensearch.md.
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@opensearch-project/opensearch';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectSearchable } from '../../src/search/doc.js';
import type { SearchTarget } from '../../src/search/dsl/ast.js';
import { parseSearchParams } from '../../src/search/dsl/parse.js';
import { OpenSearchBackend } from '../../src/search/opensearch/opensearch-backend.js';
import { evaluateSearch } from '../../src/search/reference/evaluate.js';
import { projectDoc } from '../../src/search/reference/project.js';
import type { Db } from '../../src/store/db.js';
import { dataset, filter, sort } from '../conformance/arbitraries.js';
import { cases } from '../conformance/cases.js';
import { records, target } from '../conformance/dataset.js';
import { collect, referencePage, type PageFn } from '../conformance/run-case.js';
import { deleteIndexes, realOpenSearch, testPrefix } from './helpers/real-opensearch.js';

const url = realOpenSearch('OpenSearch conformance');

/** The OpenSearch backend keeps nothing in Postgres: it never touches the handle. */
const db = undefined as unknown as Db;
type Rec = { id: string; doc: Record<string, unknown> };

/** Ships records as the indexer would (searchable projection, one version) under a connector. */
async function load(backend: OpenSearchBackend, t: SearchTarget, connectorId: string, recs: readonly Rec[], version = '2'): Promise<void> {
  const index = await backend.ensureIndex(db, t);
  const changes = recs.map((r) => ({ recordId: r.id, version, doc: projectSearchable(t.searchable, r.doc) }));
  for (let i = 0; i < changes.length; i += 500) await backend.apply(db, index, connectorId, changes.slice(i, i + 500));
}

/** A conformance PageFn over one connector's documents. */
function pageFn(backend: OpenSearchBackend, t: SearchTarget, connectorId: string): PageFn {
  return async (query, after) => {
    const rows = await backend.search(db, { target: t, connectorId, query, after, size: query.limit + 1 });
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return {
      hits: page.map((h) => ({ id: h.id, score: h.score, data: projectDoc(t, query.fields, h.doc) })),
      after: rows.length > query.limit && last !== undefined ? last.sortValues : null,
    };
  };
}

describe.skipIf(url === null)('OpenSearch backend = conformance table and reference evaluator', () => {
  const prefix = testPrefix();
  let client: Client;
  let backend: OpenSearchBackend;
  let page: PageFn;

  beforeAll(async () => {
    client = new Client({ node: url as string });
    backend = new OpenSearchBackend({ client, prefix, refresh: true, layout: { shards: 2, replicas: 0 } });
    const connector = randomUUID();
    await load(backend, target, connector, records);
    // A stale change (older version) must lose to the shipped one.
    await load(backend, target, connector, [{ id: 'r01', doc: { id: 'r01', name: 'STALE' } }], '1');
    // A record shipped then deleted must be gone; another tenant's records must stay invisible.
    await load(backend, target, connector, [{ id: 'r99', doc: { id: 'r99', name: 'Ada' } }], '3');
    await backend.apply(db, await backend.ensureIndex(db, target), connector, [{ recordId: 'r99', version: '4', doc: null }]);
    await load(backend, target, randomUUID(), records.map((r) => ({ id: `other-${r.id}`, doc: r.doc })));
    page = pageFn(backend, target, connector);
  }, 300_000);

  afterAll(async () => {
    if (client === undefined) return;
    await deleteIndexes(client, prefix);
    await client.close();
  }, 120_000);

  for (const c of cases) {
    it(c.name, async () => {
      const hits = await collect(page, c.params);
      const expected = await collect(referencePage, c.params);
      expect(hits.map((h) => h.id)).toEqual(c.ids);
      expect(hits.map((h) => h.id)).toEqual(expected.map((h) => h.id));
      expect(hits.map((h) => h.score)).toEqual(c.scores ?? expected.map((h) => h.score));
      if (c.data !== undefined) expect(hits[0]?.data).toEqual(c.data);
      expect((await collect(page, c.params, 2)).map((h) => h.id)).toEqual(c.ids);
    });
  }

  it('random datasets and queries, paged with random page sizes', async () => {
    const query = fc.record({ filter: fc.option(filter, { nil: undefined }), sort: fc.option(sort, { nil: undefined }), pageSize: fc.integer({ min: 1, max: 6 }) });
    await fc.assert(
      fc.asyncProperty(dataset, fc.array(query, { minLength: 15, maxLength: 15 }), async (recs, queries) => {
        const connector = randomUUID(); // each dataset is its own tenant of the shared index
        await load(backend, target, connector, recs);
        const random = pageFn(backend, target, connector);
        for (const q of queries) {
          const params = { query: { ...(q.filter === undefined ? {} : { filter: q.filter }), ...(q.sort === undefined ? {} : { sort: q.sort }) } };
          const expected = evaluateSearch(target, parseSearchParams(target, params), recs);
          const got = await collect(random, params, q.pageSize);
          expect(got.map((h) => [h.id, h.score]), JSON.stringify(params)).toEqual(expected.map((h) => [h.id, h.score]));
        }
      }),
      { numRuns: 20, seed: Number(process.env.PROPERTY_SEED ?? Date.now() % 2 ** 31), verbose: 1 },
    );
  }, 300_000);
});
