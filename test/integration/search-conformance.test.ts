import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresSearchBackend } from '../../src/search/postgres/postgres-backend.js';
import { createDb, createSearchDb, type DB } from '../../src/store/db.js';
import { cases } from '../conformance/cases.js';
import { records, target } from '../conformance/dataset.js';
import { loadPostgres } from '../conformance/postgres-page.js';
import { collect, type PageFn } from '../conformance/run-case.js';
import { migratedDatabase } from './helpers/fresh-db.js';

/**
 * `like` pages walked from one record on (like-walk.ts), so that on this small data every walk
 * goes on where the last stopped, and reads the trigram candidates left when the costs say so.
 */
const WALKS = { stepwise: { firstRows: 1, plannedWhenSmall: false, rowCost: 1, candidateCost: 1 }, toCandidates: { firstRows: 2, plannedWhenSmall: false, rowCost: 10, candidateCost: 1 } };

describe.each([
  ['as it is', new PostgresSearchBackend()],
  ['with like pages walked one record on', new PostgresSearchBackend({}, WALKS.stepwise)],
  ['with like pages walked, then read from their candidates', new PostgresSearchBackend({}, WALKS.toCandidates)],
])('conformance table on the Postgres backend %s', (_, backend) => {
  let db: Kysely<DB>;
  let searchDb: Kysely<DB>;
  let page: PageFn;

  beforeAll(async () => {
    const url = await migratedDatabase();
    db = createDb(url, 2).db;
    // As the API searches: each case runs twice (two page sizes), the second time named.
    searchDb = createSearchDb(url, { statementTimeoutMs: 30_000 });
    page = await loadPostgres(db, target, records, searchDb, backend);
  });
  afterAll(async () => (await searchDb?.destroy(), await db?.destroy()));

  for (const c of cases) {
    it(c.name, async () => {
      const hits = await collect(page, c.params);
      expect(hits.map((h) => h.id)).toEqual(c.ids);
      if (c.scores !== undefined) expect(hits.map((h) => h.score)).toEqual(c.scores);
      if (c.data !== undefined) expect(hits[0]?.data).toEqual(c.data);
      expect((await collect(page, c.params, 2)).map((h) => h.id)).toEqual(c.ids);
    });
  }
});
