import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DB } from '../../src/store/db.js';
import { dataset, filter, sort } from '../conformance/arbitraries.js';
import { target } from '../conformance/dataset.js';
import { loadPostgres } from '../conformance/postgres-page.js';
import { collect, type PageFn } from '../conformance/run-case.js';
import { parseSearchParams } from '../../src/search/dsl/parse.js';
import { evaluateSearch } from '../../src/search/reference/evaluate.js';

const DATASETS = 60;
const QUERIES_PER_DATASET = 20;

describe('Postgres backend = reference evaluator on random data and queries', () => {
  let db: Kysely<DB>;
  let cases = 0;

  beforeAll(async () => {
    db = createDb(await migratedDatabaseUrl(), 4).db;
  });
  afterAll(async () => {
    await db?.destroy();
    // The issue asks for at least 1,000 random cases per run; fail loudly if the budget shrinks.
    expect(cases).toBeGreaterThanOrEqual(1000);
  });

  it(`${DATASETS} datasets × ${QUERIES_PER_DATASET} queries, paged with random page sizes`, async () => {
    const query = fc.record({ filter: fc.option(filter, { nil: undefined }), sort: fc.option(sort, { nil: undefined }), pageSize: fc.integer({ min: 1, max: 6 }) });
    await fc.assert(
      fc.asyncProperty(dataset, fc.array(query, { minLength: QUERIES_PER_DATASET, maxLength: QUERIES_PER_DATASET }), async (records, queries) => {
        const page: PageFn = await loadPostgres(db, target, records);
        for (const q of queries) {
          const params = { query: { ...(q.filter === undefined ? {} : { filter: q.filter }), ...(q.sort === undefined ? {} : { sort: q.sort }) } };
          const parsed = parseSearchParams(target, params);
          const expected = evaluateSearch(target, parsed, records);
          const got = await collect(page, params, q.pageSize);
          cases++;
          expect(got.map((h) => h.id), JSON.stringify(params)).toEqual(expected.map((h) => h.id));
          expect(got.map((h) => h.score), JSON.stringify(params)).toEqual(expected.map((h) => h.score));
        }
      }),
      { numRuns: DATASETS, seed: Number(process.env.PROPERTY_SEED ?? Date.now() % 2 ** 31), verbose: 1 },
    );
  });
});

import { migratedDatabase as migratedDatabaseUrl } from './helpers/fresh-db.js';
