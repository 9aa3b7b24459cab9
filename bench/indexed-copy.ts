/**
 * COPY into the structure the sync writes: a table like `records` with every index it has
 * (primary key, versions, lookup GIN, trigram GIN, word GIN, the entity's sort indexes), and the
 * vocabulary (each distinct word once, as a sync's writers add it), the rows prepared as the
 * worker prepares them (keys, shadow, search text, words, hash) before the clock. The limit of
 * the structure itself, beside the bare-table COPY: what the indexes cost at write time.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { getConnectorDef, getEntityDef } from '../src/connectors/catalog/index.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import { ensureRecordPartition } from '../src/store/record-partitions.js';
import { ensureEntityIndexes } from '../src/search/postgres/entity-indexes.js';
import { lookupFields, searchTarget } from '../src/search/target.js';
import { createDb } from '../src/store/db.js';
import { withShadows } from '../src/worker/page-writer.js';
import { indexWords } from '../src/store/page-words.js';
import { benchDb } from './lib/stack.js';

const text = (s: string): string => s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
const nullable = (v: unknown): string => (v === null || v === undefined ? '\\N' : text(typeof v === 'string' ? v : JSON.stringify(v)));

/** Seconds to COPY the dataset's first `n` customers into a table with the records table's indexes. */
export async function indexedCopySeconds(sandbox: Sandbox, n: number): Promise<number> {
  const ds = sandbox.dataset('payments', 'customers');
  const def = getEntityDef(getConnectorDef('payments'), 'customers');
  const bench = await benchDb();
  const { db } = createDb(bench.pg.url, 1);
  const client = new pg.Client({ connectionString: bench.pg.url });
  try {
    await ensureEntityIndexes(db, searchTarget('payments', 'customers'));
    const partition = await ensureRecordPartition(db, 'customers');
    const records = withShadows(Array.from({ length: n }, (_, i) => ({ id: String(ds.recordAt(i).id), data: ds.recordAt(i) as Record<string, unknown> })), def.searchable, lookupFields(def));
    const indexed = indexWords(bench.connectorId, 'customers', records);
    const lines = records.map((r, i) => `${bench.connectorId}\tcustomers\t${text(r.id)}\t${text(r.json as string)}\t${nullable(r.shadow)}\t${nullable(r.keys)}\t${nullable(r.text)}\t{${(indexed.words.of(i) ?? []).join(',')}}\t${r.hash}\t${i + 1}\n`);
    const vocab = indexed.fresh.map((e) => `${bench.connectorId}\tcustomers\t${text(e.path)}\t${text(e.word)}\n`);
    await client.connect();
    // The entity's partition: its columns, defaults, storage and every index (its sort indexes
    // included); no foreign key.
    await client.query(`create table copy_indexed (like ${partition} including defaults including indexes) with (toast_tuple_target = 8160)`);
    await client.query('create table copy_vocab (like search_vocab including defaults including indexes)');
    const t = performance.now();
    await pipeline(Readable.from(lines), client.query(copyFrom('copy copy_indexed (connector_id, entity, record_id, data, shadow, keys, text_lc, words, content_hash, version) from stdin')));
    await pipeline(Readable.from(vocab), client.query(copyFrom('copy copy_vocab (connector_id, entity, path, word) from stdin')));
    return (performance.now() - t) / 1000;
  } finally {
    await client.end().catch(() => undefined);
    await db.destroy();
    await bench.close();
  }
}
