/**
 * The conformance table (test/conformance) on a REAL OpenSearch, compared with the reference
 * evaluator: ids in order, scores, paging, plus stale versions, deletes and other tenants. The
 * cluster comes from opensearch-setup.ts (OPENSEARCH_URL, a container, or the local node); the
 * random datasets and queries run on both backends in search-properties.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenSearchBackend } from '../../src/search/opensearch/opensearch-backend.js';
import { cases } from '../conformance/cases.js';
import { records, target } from '../conformance/dataset.js';
import { openSearchPage, shipDeletes, shipRecords } from '../conformance/opensearch-page.js';
import { collect, referencePage, type PageFn } from '../conformance/run-case.js';
import { realOpenSearch, releaseOpenSearch, testPrefix } from './helpers/real-opensearch.js';

const url = realOpenSearch('OpenSearch conformance');

describe.skipIf(url === null)('OpenSearch backend = conformance table and reference evaluator', () => {
  const prefix = testPrefix();
  let client: Client | undefined;
  let page: PageFn;

  beforeAll(async () => {
    client = new Client({ node: url as string });
    const backend = new OpenSearchBackend({ client, prefix, refresh: true, layout: { shards: 2, replicas: 0 } });
    const connector = randomUUID();
    await shipRecords(backend, target, connector, records);
    // A stale change (older version) must lose to the shipped one.
    await shipRecords(backend, target, connector, [{ id: 'r01', doc: { id: 'r01', name: 'STALE' } }], '1');
    // A record shipped then deleted must be gone; another tenant's records must stay invisible.
    await shipRecords(backend, target, connector, [{ id: 'r99', doc: { id: 'r99', name: 'Ada' } }], '3');
    await shipDeletes(backend, target, connector, ['r99'], '4');
    await shipRecords(backend, target, randomUUID(), records.map((r) => ({ id: `other-${r.id}`, doc: r.doc })));
    page = openSearchPage(backend, target, connector);
  }, 300_000);

  afterAll(() => releaseOpenSearch(client, prefix), 120_000);

  // docs/search-decisions.md 37: filters inside the contract's bounds that OpenSearch's clause
  // limit refuses. Pinned so a change in either direction is seen.
  it('answers a fuzzy text of 340 words (within the 1,024-character bound) with invalid_query at query.filter, naming the limit', async () => {
    const words = Array.from({ length: 340 }, (_, i) => `w${i.toString(36)}x`).join(' ').slice(0, 1024);
    await expect(collect(page, { query: { filter: { fuzzy: { name: words } } } })).rejects.toMatchObject({ code: 'invalid_query', path: 'query.filter', message: expect.stringContaining('max_clause_count') });
  });

  it('runs the large filters that fit: 40 in-lists of 1,000 values under or, a 340-word keyword, 499 eq under or', async () => {
    const ors = { or: Array.from({ length: 40 }, (_, k) => ({ in: { name: k === 39 ? ['Ada Lovelace', ...Array.from({ length: 999 }, (_, i) => `n${i}`)] : Array.from({ length: 1000 }, (_, i) => `n${k}-${i}`) } })) };
    expect((await collect(page, { query: { filter: ors } })).map((h) => h.id)).toEqual((await collect(referencePage, { query: { filter: ors } })).map((h) => h.id));
    const words = Array.from({ length: 340 }, (_, i) => `w${i.toString(36)}x`).join(' ').slice(0, 1020);
    const kw = { keyword: { name: `ada ${words}` } };
    expect((await collect(page, { query: { filter: kw } })).map((h) => h.id)).toEqual((await collect(referencePage, { query: { filter: kw } })).map((h) => h.id));
    const eqs = { or: Array.from({ length: 499 }, (_, k) => ({ eq: { name: k === 0 ? 'Ada Lovelace' : `x${k}` } })) };
    expect((await collect(page, { query: { filter: eqs } })).map((h) => h.id)).toEqual((await collect(referencePage, { query: { filter: eqs } })).map((h) => h.id));
  });

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
});
