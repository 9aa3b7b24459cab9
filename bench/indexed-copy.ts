/**
 * COPY into the structure the sync writes: a table like `records` with every index it has
 * (primary key, versions, lookup GIN, trigram GIN, word GIN, the entity's sort indexes), and the
 * vocabulary (each distinct word once, as a sync's writers add it), the rows prepared as the
 * worker prepares them (keys, shadow, search text, words, hash) before the clock. The limit of
 * the structure itself, beside the bare-table COPY: what the indexes cost at write time. And
 * each index's own share of it: the same COPY with that one index left out.
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
import { round, type Figure } from './lib/stats.js';

const text = (s: string): string => s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
const nullable = (v: unknown): string => (v === null || v === undefined ? '\\N' : text(typeof v === 'string' ? v : JSON.stringify(v)));
const RECORD_COLUMNS = '(connector_id, entity, record_id, data, shadow, keys, text_lc, words, content_hash, version)';

/** The dataset's first `n` customers as COPY lines for the records structure and its vocabulary, in a fresh bench database whose entity partition exists. */
interface Prepared {
  readonly client: pg.Client;
  readonly partition: string;
  readonly lines: readonly string[];
  readonly vocab: readonly string[];
  close(): Promise<void>;
}

async function prepare(sandbox: Sandbox, n: number): Promise<Prepared> {
  const ds = sandbox.dataset('payments', 'customers');
  const def = getEntityDef(getConnectorDef('payments'), 'customers');
  const bench = await benchDb();
  const { db } = createDb(bench.pg.url, 1);
  const client = new pg.Client({ connectionString: bench.pg.url });
  const close = async (): Promise<void> => {
    await client.end().catch(() => undefined);
    await db.destroy();
    await bench.close();
  };
  try {
    await ensureEntityIndexes(db, searchTarget('payments', 'customers'));
    const partition = await ensureRecordPartition(db, 'customers');
    const records = withShadows(Array.from({ length: n }, (_, i) => ({ id: String(ds.recordAt(i).id), data: ds.recordAt(i) as Record<string, unknown> })), def.searchable, lookupFields(def));
    const indexed = indexWords(bench.connectorId, 'customers', records);
    const lines = records.map((r, i) => `${bench.connectorId}\tcustomers\t${text(r.id)}\t${text(r.json as string)}\t${nullable(r.shadow)}\t${nullable(r.keys)}\t${nullable(r.text)}\t{${(indexed.words.of(i) ?? []).join(',')}}\t${r.hash}\t${i + 1}\n`);
    const vocab = indexed.fresh.map((e) => `${bench.connectorId}\tcustomers\t${text(e.path)}\t${text(e.word)}\n`);
    await client.connect();
    return { client, partition, lines, vocab, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Seconds to COPY `lines` into `table` (the records structure's columns). */
async function copySeconds(client: pg.Client, table: string, lines: readonly string[]): Promise<number> {
  const t = performance.now();
  await pipeline(Readable.from(lines), client.query(copyFrom(`copy ${table} ${RECORD_COLUMNS} from stdin`)));
  return (performance.now() - t) / 1000;
}

/** The same-structure COPY of `n` rows (seconds), and each index's cost on up to `costRows` of them, in one database. */
export interface StructureCopy {
  readonly seconds: number;
  readonly costs: IndexCosts;
}

/**
 * COPYs the dataset's first `n` customers into a table with the records table's indexes, then
 * measures each index's cost on the first `costRows` of the same prepared rows.
 */
export async function indexedCopy(sandbox: Sandbox, n: number, costRows: number): Promise<StructureCopy> {
  const p = await prepare(sandbox, n);
  try {
    // The entity's partition: its columns, defaults, storage and every index (its sort indexes
    // included); no foreign key. The first COPY into this fresh database, as it always was.
    await p.client.query(`create table copy_indexed (like ${p.partition} including defaults including indexes) with (toast_tuple_target = 8160)`);
    await p.client.query('create table copy_vocab (like search_vocab including defaults including indexes)');
    const t = performance.now();
    await copySeconds(p.client, 'copy_indexed', p.lines);
    await pipeline(Readable.from(p.vocab), p.client.query(copyFrom('copy copy_vocab (connector_id, entity, path, word) from stdin')));
    const seconds = (performance.now() - t) / 1000;
    await p.client.query('drop table copy_indexed, copy_vocab');
    return { seconds, costs: await indexCosts(p, p.lines.slice(0, costRows)) };
  } finally {
    await p.close();
  }
}

/** One index of the records structure: what it is, its size after the COPY, and the COPY's seconds without it. */
export interface IndexCost {
  readonly label: string;
  readonly bytes: number;
  readonly secondsWithout: number;
}

/** The COPY with every index, with none, and with each index left out in turn, on `n` rows. */
export interface IndexCosts {
  readonly n: number;
  readonly all: number;
  readonly none: number;
  readonly each: readonly IndexCost[];
}

/** What each index of the partition is, from its definition. */
function indexLabels(defs: readonly string[]): string[] {
  let sorts = 0;
  return defs.map((def) => {
    if (def.includes('gin_trgm_ops')) return 'trigram GIN (text_lc)';
    if (/USING gin \(words\)/.test(def)) return 'word GIN (words)';
    if (/USING gin \(keys/.test(def)) return 'lookup GIN (keys)';
    if (/^CREATE UNIQUE INDEX/.test(def)) return 'primary key (connector, entity, record id)';
    if (/\bversion\)/.test(def)) return 'versions (connector, entity, version)';
    return `sort index ${++sorts}`;
  });
}

/** Each index's share of the same-structure COPY of `lines`: every variant's COPY once, on a fresh table. */
async function indexCosts(p: Prepared, lines: readonly string[]): Promise<IndexCosts> {
  const defs = (await p.client.query<{ indexdef: string }>('select indexdef from pg_indexes where tablename = $1 order by indexname', [p.partition])).rows.map((r) => r.indexdef);
  if (defs.length === 0) throw new Error(`indexCosts: no index found on the partition ${p.partition}`);
  // Short names by position: a partition's index names are near the 63-byte limit already.
  const named = defs.map((def, i) => def.replace(/ ON \S+ /, ' ON copy_variant ').replace(/INDEX \S+/, `INDEX copy_variant_${i}`));
  const copyWith = async (indexes: readonly string[]): Promise<number> => {
    await p.client.query('drop table if exists copy_variant');
    await p.client.query(`create table copy_variant (like ${p.partition} including defaults) with (toast_tuple_target = 8160)`);
    for (const ddl of indexes) await p.client.query(ddl);
    // Every variant starts from the same state: nothing of the last one left to write back.
    await p.client.query('checkpoint');
    return copySeconds(p.client, 'copy_variant', lines);
  };
  // The database's first COPYs into a new table pay for warming it: one untimed, then the full
  // structure timed before and after the variants, as the drift between them is the noise.
  await copyWith(named);
  const before = await copyWith(named);
  const none = await copyWith([]);
  const without: number[] = [];
  for (const ddl of named) without.push(await copyWith(named.filter((x) => x !== ddl)));
  const all = (before + (await copyWith(named))) / 2;
  // The table now holds every index, each full. One statement: a client runs one query at a time
  // (pg 8.19 warns of queries queued on a busy client, and pg 9 refuses them).
  const sizes = await p.client.query<{ b: string }>('select pg_relation_size(i) as b from unnest($1::regclass[]) with ordinality as u(i, n) order by n', [named.map((_, i) => `copy_variant_${i}`)]);
  const bytes = sizes.rows.map((r) => Number(r.b));
  const labels = indexLabels(defs);
  return { n: lines.length, all, none, each: defs.map((_, i) => ({ label: labels[i] as string, bytes: bytes[i] ?? 0, secondsWithout: without[i] as number })) };
}

/** The share, in %, of the COPY's time with every index that a variant taking `without` seconds saves. */
export const indexShare = (c: IndexCosts, without: number): number => round((100 * (c.all - without)) / c.all, 1);

/** Each index's share of the same-structure COPY's time, and all of them together: reported, no target. */
export function indexCostFigures(c: IndexCosts): Figure[] {
  const rate = (s: number): number => Math.round(c.n / s);
  const of = (name: string, without: number, note: string): Figure => ({ group: 'ingest structure', name, unit: '% of the COPY', value: indexShare(c, without), baseline: null, ratio: null, target: 'reported', pass: null, note });
  return [
    of(`every index (${c.n} rows)`, c.none, `COPY with every index ${rate(c.all)} rows/s, with none ${rate(c.none)}`),
    ...c.each.map((e) => of(`${e.label}, left out`, e.secondsWithout, `COPY without it ${rate(e.secondsWithout)} rows/s against ${rate(c.all)} with every index; ${round(e.bytes / 2 ** 20, 1)} MB at ${c.n} rows`)),
  ];
}
