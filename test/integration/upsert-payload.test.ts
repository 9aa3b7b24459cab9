/**
 * A page upsert stores each record as the page carried it: its JSON from the runtime's bytes or
 * serialized from the parsed record, and its word hashes from the page's one binary int4[],
 * each record its own slice (none, empty, or many words, side by side in one statement).
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DB } from '../../src/store/db.js';
import { contentHash, upsertPage, type PageRecord } from '../../src/store/records-repo.js';
import { hashWords, tenantSeed, wordGroups } from '../../src/search/postgres/word-index.js';
import { recordSearchText } from '../../src/search/postgres/search-text.js';
import { insertConnectorRow } from '../conformance/postgres-page.js';
import { migratedDatabase } from './helpers/fresh-db.js';

const searchable = { name: {}, tags: {}, note: {} };

describe('page upsert payload', () => {
  let db: Kysely<DB>;
  beforeAll(async () => {
    db = createDb(await migratedDatabase(), 4).db;
  });
  afterAll(async () => db.destroy());

  it('gives each record its own JSON and its own words, whichever way its JSON came', async () => {
    const connectorId = await insertConnectorRow(db, 'payments');
    const datas: Record<string, unknown>[] = [
      { id: 'a', name: 'Ada Lovelace', tags: ['math', 'engines'], note: 'first program' },
      { id: 'b', name: 'Zoë Ångström', note: 'ÉCOLE naïve café' },
      { id: 'c', count: 3 },
      { id: 'd', name: '', tags: [] },
      { id: 'e', name: 'Grace Hopper', tags: ['cobol'], note: 'bugs, bugs and moths' },
    ];
    const records: PageRecord[] = datas.map((data, i) => {
      const found = recordSearchText(searchable, data, true);
      // Record c keeps no text at all (as a deployment searching with OpenSearch writes it).
      const text = data.id === 'c' ? { text: null, strings: null } : { text: found.text, strings: found.strings };
      // Every other record brings its runtime bytes, with spacing JSON.stringify would not write.
      const source = i % 2 === 0 ? Buffer.from(JSON.stringify(data, null, 1)) : undefined;
      return { id: String(data.id), data, ...text, ...(source === undefined ? {} : { source, hash: contentHash(source) }) };
    });
    await upsertPage(db, connectorId, 'customers', records);
    const { rows } = await sql<{ record_id: string; data: unknown; words: number[] | null; content_hash: string }>`
      select record_id, data, words, content_hash from records where connector_id = ${connectorId}::uuid order by record_id`.execute(db);
    expect(rows.map((r) => r.data)).toEqual(datas);
    const seed = tenantSeed(connectorId, 'customers');
    expect(rows.map((r) => r.words)).toEqual(records.map((r) => (r.strings == null ? null : hashWords(seed, wordGroups(r.strings)))));
    expect(rows.map((r) => r.content_hash)).toEqual(records.map((r) => r.hash ?? contentHash(JSON.stringify(r.data))));
    expect(rows[3]?.words).toEqual([]);
  });

  it('keeps each row beside its record across a page of many rows (their JSON is sent in chunks)', async () => {
    const connectorId = await insertConnectorRow(db, 'payments');
    // 75 rows: more than two chunks of rows; names with multi-byte and astral characters.
    const datas = Array.from({ length: 75 }, (_, i) => ({ id: `r${String(i).padStart(2, '0')}`, name: `Name ${i} Zoë 𝄞 "q" \\ ${'x'.repeat(i)}`, tags: [`t${i}`] }));
    const records: PageRecord[] = datas.map((data) => {
      const found = recordSearchText(searchable, data, true);
      return { id: data.id, data, text: found.text, strings: found.strings };
    });
    await upsertPage(db, connectorId, 'customers', records);
    const { rows } = await sql<{ record_id: string; data: unknown; text_lc: string | null }>`
      select record_id, data, text_lc from records where connector_id = ${connectorId}::uuid order by record_id`.execute(db);
    expect(rows.map((r) => r.data)).toEqual(datas);
    expect(rows.map((r) => r.text_lc)).toEqual(records.map((r) => r.text));
  });
});
