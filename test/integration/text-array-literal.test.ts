/**
 * The text[] literal the page writer builds for its ids and vocabulary words reads back in
 * Postgres as exactly the strings given, whatever characters they hold.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DB } from '../../src/store/db.js';
import { textArrayLiteral } from '../../src/store/text-array-literal.js';
import { liveHashes, upsertPage, type PageRecord } from '../../src/store/records-repo.js';
import { insertConnectorRow } from '../conformance/postgres-page.js';
import { migratedDatabase } from './helpers/fresh-db.js';
import { rng } from '../unit/search/fixtures.js';

const TRICKY = ['', 'NULL', 'null', ' ', ' padded ', 'a,b', '{x}', '"', '\\', '\\"', '"\\', 'a"b\\c', 'é ü 日本 \u{1F600}', 'tab\there', 'line\nbreak', "it's", '\\\\', '}', '{'];

const PIECES = ['a', 'Z', '0', '"', '\\', ',', '{', '}', ' ', '\n', 'é', '\u{1F600}', 'NULL', "'"];

describe('text[] literal', () => {
  let db: Kysely<DB>;
  beforeAll(async () => {
    db = createDb(await migratedDatabase(), 2).db;
  });
  afterAll(async () => db.destroy());

  const readBack = async (values: string[]): Promise<string[]> =>
    (await sql<{ a: string[] }>`select ${textArrayLiteral(values)}::text[] as a`.execute(db)).rows[0]!.a;

  it('reads back as the strings given: tricky ones, none, and 300 random lists', async () => {
    expect(await readBack(TRICKY)).toEqual(TRICKY);
    expect(await readBack([])).toEqual([]);
    expect(await readBack(['plain', 'ids'])).toEqual(['plain', 'ids']);
    for (let seed = 1; seed <= 300; seed++) {
      const next = rng(seed);
      const values = Array.from({ length: Math.floor(next() * 6) }, () => Array.from({ length: Math.floor(next() * 5) }, () => PIECES[Math.floor(next() * PIECES.length)]).join(''));
      expect(await readBack(values), JSON.stringify(values)).toEqual(values);
    }
  });

  it('a page of records with such ids is stored once each, and their stored hashes are found by those ids', async () => {
    const connectorId = await insertConnectorRow(db, 'payments');
    const records: PageRecord[] = TRICKY.map((id, i) => ({ id, data: { id, n: i } }));
    const first = await upsertPage(db, connectorId, 'customers', records);
    expect(first.inserted).toBe(TRICKY.length);
    const stored = await liveHashes(db, connectorId, 'customers', TRICKY);
    expect([...stored.keys()].sort()).toEqual([...TRICKY].sort());
  });
});
