/**
 * The Postgres backend's text paths (trigram pre-filter, words, edits) against the reference
 * evaluator on random data built to stress them: words one edit inside and outside fuzzy's
 * budget, prefixes, unicode, punctuation, a word in every record, words in arrays and nested
 * objects, and records updated and deleted after they were indexed. Text filters are combined
 * with exact and range filters and sorts, and paged with cursors. PROPERTY_SEED=n replays one run.
 */
import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchTarget } from '../../src/search/dsl/ast.js';
import { parseSearchParams } from '../../src/search/dsl/parse.js';
import { PostgresSearchBackend } from '../../src/search/postgres/postgres-backend.js';
import { evaluateSearch } from '../../src/search/reference/evaluate.js';
import { createDb, type DB } from '../../src/store/db.js';
import { upsertPage } from '../../src/store/records-repo.js';
import { withShadows } from '../../src/worker/page-writer.js';
import { insertConnectorRow } from '../conformance/postgres-page.js';
import { pageOf, type PageFn } from '../conformance/run-case.js';
import { migratedDatabase } from './helpers/fresh-db.js';

const DATASETS = 50;
const QUERIES = 20;
const SEED = Number(process.env.PROPERTY_SEED ?? Date.now() % 2 ** 31);

const target: SearchTarget = { connectorType: 'conformance', entity: 'texts', idField: 'id', searchable: { id: 'string', name: 'string', note: 'string', rank: 'int', meta: 'object', tags: 'array', lines: 'array' }, lookup: ['name'] };

// 'common' sits in almost every record; the others differ by one or two edits, or by a prefix.
const VOCAB = ['common', 'lovelace', 'lovelase', 'lovlace', 'loveless', 'love', 'müller', 'muller', 'MÜLLER', 'straße', 'strasse', 'zoë', 'zoe', "o'brien", 'a.b@c.com', 'x_y', '100%', 'naïve', 'ab', 'abc', 'abcdef', 'abcxef', '😀ok', 'İstanbul'];
const phrase = fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 4 }).map((ws) => ws.join(fc.sample(fc.constantFrom(' ', '-', ', ', '/'), 1)[0]));
const doc = fc.record(
  {
    name: phrase,
    note: fc.oneof(phrase.map((p) => `common ${p}`), phrase),
    rank: fc.integer({ min: 0, max: 5 }),
    meta: fc.record({ city: phrase, code: fc.constantFrom('abc-1', 'abc-2', 'zz') }, { requiredKeys: [] }),
    tags: fc.array(fc.constantFrom(...VOCAB), { maxLength: 3 }),
    lines: fc.array(fc.record({ text: phrase }), { maxLength: 2 }),
  },
  { requiredKeys: [] },
);

/** A term 0-3 edits away from a vocabulary word, or a prefix of one. */
const term = fc.tuple(fc.constantFrom(...VOCAB), fc.integer({ min: 0, max: 4 }), fc.nat()).map(([w, kind, n]) => {
  const cs = [...w.toLowerCase()];
  const i = n % Math.max(cs.length, 1);
  if (kind === 1) cs.splice(i, 1);
  if (kind === 2) cs.splice(i, 0, 'q');
  if (kind === 3) cs.splice(i, 1, 'q', 'q');
  const t = kind === 4 ? cs.slice(0, Math.max(1, i)).join('') : cs.join('');
  // fuzzy and keyword need a word (letters or digits) to search for.
  return /[\p{L}\p{N}]/u.test(t) ? t : 'common';
});
const textPath = fc.constantFrom('name', 'note', 'tags', 'meta.city');
const textLeaf = fc.oneof(
  fc.tuple(textPath, term).map(([p, t]) => ({ like: { [p]: t } })),
  fc.tuple(textPath, term, term).map(([p, a, b]) => ({ like: { [p]: `%${a}%${b}%` } })),
  fc.tuple(fc.constantFrom('fuzzy', 'keyword'), textPath, fc.array(term, { minLength: 1, maxLength: 2 })).map(([op, p, ts]) => ({ [op]: { [p]: ts.join(' ') } })),
  fc.tuple(fc.constantFrom('meta.code', 'meta.city', 'tags'), fc.constantFrom('abc-1', 'zz', 'common', 'müller', 'lovelace')).map(([p, v]) => ({ eq: { [p]: v } })),
  fc.array(fc.constantFrom('abc-1', 'abc-2', 'zz'), { minLength: 1, maxLength: 2 }).map((vs) => ({ in: { 'meta.code': vs } })),
  term.map((t) => ({ any: { lines: { like: { text: t } } } })),
  // The word index: text and exact matches under `any` (paths qualified through the array), and
  // exact matches of whole phrases on a non-lookup field and on the lookup field.
  fc.tuple(fc.constantFrom('fuzzy', 'keyword'), fc.array(term, { minLength: 1, maxLength: 2 })).map(([op, ts]) => ({ any: { lines: { [op]: { text: ts.join(' ') } } } })),
  fc.tuple(fc.constantFrom('note', 'name', 'meta.city'), phrase).map(([p, v]) => ({ eq: { [p]: v } })),
  // Several whole phrases at once: values of several words, sharing words with each other and
  // with records that hold none of them (each is required whole, compile-search.ts).
  fc.tuple(fc.constantFrom('note', 'meta.city'), fc.array(phrase, { minLength: 2, maxLength: 4 })).map(([p, vs]) => ({ in: { [p]: vs } })),
  fc.tuple(fc.array(term, { minLength: 1, maxLength: 2 }), fc.constantFrom('abc-1', 'zz')).map(([ts, c]) => ({ and: [{ fuzzy: { name: ts.join(' ') } }, { eq: { 'meta.code': c } }] })),
);
const filter = fc.oneof(
  textLeaf,
  fc.tuple(textLeaf, fc.integer({ min: 0, max: 5 })).map(([f, r]) => ({ and: [f, { gte: { rank: r } }] })),
  fc.tuple(textLeaf, textLeaf).map(([a, b]) => ({ or: [a, b] })),
  textLeaf.map((f) => ({ not: f })),
);
const sort = fc.constantFrom(undefined, [{ rank: 'desc' }], [{ name: 'asc' }]);

type Rec = { id: string; doc: Record<string, unknown> };

describe('Postgres text search = reference evaluator, after updates and deletes', () => {
  let db: Kysely<DB>;
  let cases = 0;
  // As the product runs, and with `like` pages walked (like-walk.ts) in short steps on this small
  // data: walking on where the last walk stopped, or then reading the candidates left.
  const backends = [
    new PostgresSearchBackend(),
    new PostgresSearchBackend({}, { firstRows: 1, plannedWhenSmall: false, rowCost: 1, candidateCost: 1 }),
    new PostgresSearchBackend({}, { firstRows: 3, plannedWhenSmall: false, rowCost: 10, candidateCost: 1 }),
  ];
  beforeAll(async () => {
    db = createDb(await migratedDatabase(), 4).db;
  });
  afterAll(async () => {
    await db?.destroy();
    expect(cases).toBeGreaterThanOrEqual(1000);
  });

  const write = (connectorId: string, recs: readonly Rec[]) => upsertPage(db, connectorId, target.entity, withShadows(recs.map((r) => ({ id: r.id, data: r.doc })), target.searchable, target.lookup));

  it(`${DATASETS} datasets, changed after indexing, × ${QUERIES} text queries (seed ${SEED})`, async () => {
    const data = fc.tuple(fc.array(doc, { minLength: 1, maxLength: 25 }), fc.array(fc.tuple(fc.nat(), fc.option(doc, { nil: null })), { maxLength: 8 }), fc.constantFrom(...backends));
    const query = fc.record({ filter, sort, pageSize: fc.integer({ min: 1, max: 7 }) });
    await fc.assert(
      fc.asyncProperty(data, fc.array(query, { minLength: QUERIES, maxLength: QUERIES }), async ([docs, changes, backend], queries) => {
        const connectorId = await insertConnectorRow(db, target.connectorType);
        const live = new Map<string, Rec>(docs.map((d, i) => [`t${i}`, { id: `t${i}`, doc: { id: `t${i}`, ...d } }]));
        await write(connectorId, [...live.values()]);
        // Changes after indexing: a new document (the text must follow) or a delete (tombstone).
        for (const [n, next] of changes) {
          const id = `t${n % docs.length}`;
          if (next === null) {
            live.delete(id);
            await sql`update records set deleted_at = now() where connector_id = ${connectorId}::uuid and record_id = ${id}`.execute(db);
          } else {
            live.set(id, { id, doc: { id, ...next } });
            await write(connectorId, [live.get(id) as Rec]);
          }
        }
        const page: PageFn = async (q, after) => pageOf(target, q, await backend.search(db, { target, connectorId, query: q, after, size: q.limit + 1 }));
        for (const q of queries) {
          const params = { query: { filter: q.filter, ...(q.sort === undefined ? {} : { sort: q.sort }) }, limit: q.pageSize };
          const parsed = parseSearchParams(target, params);
          const expected = evaluateSearch(target, parsed, [...live.values()]).map((h) => [h.id, h.score]);
          const got: unknown[] = [];
          let after: readonly unknown[] | null = null;
          do {
            const res = await page(parsed, after);
            got.push(...res.hits.map((h) => [h.id, h.score]));
            after = res.after;
          } while (after !== null);
          cases++;
          expect(got, JSON.stringify(params)).toEqual(expected);
        }
      }),
      { numRuns: DATASETS, seed: SEED, verbose: 1 },
    );
  }, 600_000);
});
