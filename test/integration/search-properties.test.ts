/**
 * Both backends = the reference evaluator on random datasets and queries (filters, sorts,
 * cursor page sizes), the same cases on each. PROPERTY_SEED=n replays one run.
 */
import { Client } from '@opensearch-project/opensearch';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSearchParams } from '../../src/search/dsl/parse.js';
import { OpenSearchBackend } from '../../src/search/opensearch/opensearch-backend.js';
import { evaluateSearch } from '../../src/search/reference/evaluate.js';
import { createDb, createSearchDb } from '../../src/store/db.js';
import { dataset, filter, sort } from '../conformance/arbitraries.js';
import { target } from '../conformance/dataset.js';
import { loadOpenSearch } from '../conformance/opensearch-page.js';
import { loadPostgres } from '../conformance/postgres-page.js';
import { collect, type PageFn } from '../conformance/run-case.js';
import { migratedDatabase } from './helpers/fresh-db.js';
import { realOpenSearch, releaseOpenSearch, testPrefix } from './helpers/real-opensearch.js';

const DATASETS = 60;
const QUERIES_PER_DATASET = 20;
const SEED = Number(process.env.PROPERTY_SEED ?? Date.now() % 2 ** 31);
type Rec = { id: string; doc: Record<string, unknown> };

/** A backend under test: loads one dataset as its own tenant; close() drops what it made. */
interface Loader {
  load(records: readonly Rec[]): Promise<PageFn>;
  close(): Promise<void>;
}

/** Searches run on a search pool, as the API's do: the shapes each connection repeats run named, across tenants. */
async function postgresLoader(): Promise<Loader> {
  const url = await migratedDatabase();
  const { db } = createDb(url, 4);
  const searchDb = createSearchDb(url, { statementTimeoutMs: 30_000 });
  return { load: (recs) => loadPostgres(db, target, recs, searchDb), close: async () => (await searchDb.destroy(), await db.destroy()) };
}

async function openSearchLoader(url: string): Promise<Loader> {
  const client = new Client({ node: url });
  const prefix = testPrefix();
  const backend = new OpenSearchBackend({ client, prefix, refresh: true, layout: { shards: 2, replicas: 0 } });
  return { load: (recs) => loadOpenSearch(backend, target, recs), close: () => releaseOpenSearch(client, prefix) };
}

const osUrl = realOpenSearch('OpenSearch random search properties');
const backends: [string, () => Promise<Loader>][] = [['Postgres', postgresLoader]];
if (osUrl !== null) backends.push(['OpenSearch', () => openSearchLoader(osUrl)]);

describe.each(backends)('%s backend = reference evaluator on random data and queries', (_name, open) => {
  let cases = 0;
  let loader: Loader | undefined;

  afterAll(async () => {
    await loader?.close();
    // The issue asks for at least 1,000 random cases per run; fail loudly if the budget shrinks.
    expect(cases).toBeGreaterThanOrEqual(1000);
  });

  it(`${DATASETS} datasets × ${QUERIES_PER_DATASET} queries, paged with random page sizes (seed ${SEED})`, async () => {
    loader = await open();
    const query = fc.record({ filter: fc.option(filter, { nil: undefined }), sort: fc.option(sort, { nil: undefined }), pageSize: fc.integer({ min: 1, max: 6 }) });
    await fc.assert(
      fc.asyncProperty(dataset, fc.array(query, { minLength: QUERIES_PER_DATASET, maxLength: QUERIES_PER_DATASET }), async (records, queries) => {
        const page = await (loader as Loader).load(records);
        for (const q of queries) {
          const params = { query: { ...(q.filter === undefined ? {} : { filter: q.filter }), ...(q.sort === undefined ? {} : { sort: q.sort }) } };
          const expected = evaluateSearch(target, parseSearchParams(target, params), records);
          const got = await collect(page, params, q.pageSize);
          cases++;
          expect(got.map((h) => h.id), JSON.stringify(params)).toEqual(expected.map((h) => h.id));
          expect(got.map((h) => h.score), JSON.stringify(params)).toEqual(expected.map((h) => h.score));
        }
      }),
      { numRuns: DATASETS, seed: SEED, verbose: 1 },
    );
  }, 600_000);
});
