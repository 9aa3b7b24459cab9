/**
 * What a hit answers: its document projected to the searchable fields, or to `fields`. On random
 * records holding keys that are not searchable (escapes, unicode, `__proto__`, nulls, nested
 * values) and random `fields` and sorts, paged with cursors through a search pool: every hit's
 * data equals the reference projection, and the pages the reference order, including sorts by
 * a field the answer leaves out; and so does the data an HTTP answer cuts from each document's
 * JSON text as Postgres writes it.
 */
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_LIMITS } from '../../src/search/dsl/ast.js';
import { parseSearchParams } from '../../src/search/dsl/parse.js';
import { jsonProjector } from '../../src/search/json-projection.js';
import { PostgresSearchBackend } from '../../src/search/postgres/postgres-backend.js';
import { evaluateSearch } from '../../src/search/reference/evaluate.js';
import { projectDoc } from '../../src/search/reference/project.js';
import { createDb, createSearchDb, type DB } from '../../src/store/db.js';
import { dataset, sort } from '../conformance/arbitraries.js';
import { target } from '../conformance/dataset.js';
import { loadPostgresConnector } from '../conformance/postgres-page.js';
import { collect } from '../conformance/run-case.js';
import { migratedDatabase } from './helpers/fresh-db.js';

const SEED = Number(process.env.PROPERTY_SEED ?? Date.now() % 2 ** 31);
const RUNS = 40;

/** Keys no searchable field has: what a third party adds beside the documented fields. */
const extraKey = fc.oneof(fc.constantFrom('__proto__', 'secret_note', 'a"b\\c', 'ünïcödé', 'x y', '', 'constructor', 'toString'), fc.string({ maxLength: 6 })).filter((k) => !(k in target.searchable));
const json = fc.jsonValue({ maxDepth: 2 });
const extras = fc.array(fc.tuple(extraKey, json), { maxLength: 4 });
/** `fields` selections: absent, whole top-level fields, or nested paths. */
const fields = fc.option(fc.uniqueArray(fc.constantFrom('id', 'name', 'email', 'age', 'created', 'address', 'address.city', 'tags', 'orders', 'balance'), { minLength: 1, maxLength: 4 }), { nil: undefined });

describe('answers projected on the Postgres backend', () => {
  let db: Kysely<DB>;
  let searchDb: Kysely<DB>;
  beforeAll(async () => {
    const url = await migratedDatabase();
    db = createDb(url, 2).db;
    searchDb = createSearchDb(url, { statementTimeoutMs: 30_000 });
  });
  afterAll(async () => (await searchDb?.destroy(), await db?.destroy()));

  it(`equals the reference projection and order on random records, fields and sorts (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(dataset, fc.array(extras, { minLength: 14, maxLength: 14 }), fields, fc.option(sort, { nil: undefined }), fc.integer({ min: 1, max: 4 }), async (base, added, selected, order, pageSize) => {
        // Own properties, `__proto__` included, as JSON.parse would make them.
        const records = base.map((r, i) => ({ id: r.id, doc: { ...(JSON.parse(JSON.stringify(Object.fromEntries(added[i] ?? []))) as Record<string, unknown>), ...r.doc } }));
        const { connectorId, page } = await loadPostgresConnector(db, target, records, searchDb);
        const params = { query: order === undefined ? {} : { sort: order }, ...(selected === undefined ? {} : { fields: selected }) };
        const query = parseSearchParams(target, params);
        const expected = evaluateSearch(target, query, records);
        const got = await collect(page, params, pageSize);
        expect(got.map((h) => h.id)).toEqual(expected.map((h) => h.id));
        const byId = new Map(records.map((r) => [r.id, r.doc]));
        // As JSON: what an answer is (the generated objects may have no prototype).
        for (const h of got) expect(h.data, h.id).toStrictEqual(JSON.parse(JSON.stringify(projectDoc(target, query.fields, byId.get(h.id) ?? {}))));
        // What the HTTP answer holds: each hit's data cut from its document's text as Postgres wrote it.
        const all = parseSearchParams(target, { ...params, limit: SEARCH_LIMITS.maxLimit });
        const project = jsonProjector(target, all.fields);
        for (const r of await new PostgresSearchBackend().search(searchDb, { target, connectorId, query: all, after: null, size: all.limit + 1 })) {
          expect(r.json, r.id).toBeTypeOf('string');
          expect(JSON.parse(project(r.json as string)), r.id).toStrictEqual(JSON.parse(JSON.stringify(projectDoc(target, query.fields, byId.get(r.id) ?? {}))));
        }
      }),
      { numRuns: RUNS, seed: SEED, verbose: 1 },
    );
  }, 300_000);
});
