/**
 * A child process (forked by ../bare-writer.ts) that does only what any worker writing the
 * Postgres search structures must do per record, with the worker's own code for each step: read
 * the pages from the runtime over HTTP, parse them, derive each record's row (JSON text, hash,
 * lookup keys, shadow, search text, words), and upsert them with the worker's statement, one page
 * after the other. No queue, run, checkpoint, lock, seen-set or overlapping writes. Its CPU per
 * record is the least a worker with these structures can use on this machine, I/O included.
 *
 * `no-words`: the same, with no word index (each record's search text and shadow, no words
 * column and no vocabulary); `no-search`: as a deployment that searches with OpenSearch writes
 * (no lookup keys, search text or words). Beside `derive`, they say what each structure costs the
 * worker's steps with their I/O, where the pure figures say what it costs alone.
 *
 * `forward`: the floor under any worker that parses records in JavaScript, whatever it derives:
 * read each page over HTTP with the worker's client, JSON.parse it, and send its bytes unchanged
 * into a plain table (ids and documents split out by Postgres), nothing derived, hashed or
 * re-serialized.
 *
 * `transport`: under that, what no worker avoids even without parsing anything: each page's bytes
 * read over HTTP with the worker's client and sent on to the same plain table, neither decoded
 * nor parsed. The calls to make (each page's cursor comes from the page before) are read first,
 * unmeasured.
 */
import { getConnectorDef, getEntityDef } from '../../src/connectors/catalog/index.js';
import { firstPageParams, nextPageParams, readCall, recordsOf, runtimeParams } from '../../src/connectors/planner.js';
import { HttpConnectorRuntime, type RuntimePage } from '../../src/connectors/runtime-client.js';
import { lookupFields } from '../../src/search/target.js';
import { createDb } from '../../src/store/db.js';
import { prepareUpsert, runUpsert, type PageRecord, type PreparedUpsert } from '../../src/store/records-repo.js';
import { rememberWords } from '../../src/store/page-words.js';
import { changedUpsert, withShadows } from '../../src/worker/page-writer.js';
import { toPageRecords } from '../../src/worker/page-records.js';
import { createLogger } from '../../src/logger.js';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/store/db.js';
import type { EntityDef } from '../../src/connectors/catalog/types.js';
import { jsonbOf } from '../../src/store/jsonb-binary.js';

const logger = createLogger('warn');

type Page = { readonly records: Record<string, unknown>[]; readonly meta: Record<string, unknown> };
type Call = Parameters<HttpConnectorRuntime['execute']>[0];

/** Reads, parses and writes one page as the worker's steps do, with the structures `mode` keeps. */
function deriving(db: Kysely<DB>, runtime: HttpConnectorRuntime, entity: EntityDef, job: BareWriterJob, mode: DeriveMode): (call: Call) => Promise<Page> {
  const searchesHere = mode !== 'no-search';
  const writes = { connectorId: job.connectorId, entity: 'customers', searchable: entity.searchable, lookup: searchesHere ? lookupFields(entity) : [], text: searchesHere };
  const upsertOf = mode === 'no-words' ? wordless : changedUpsert;
  return async (call) => {
    const page = await runtime.execute(call);
    const records = recordsOf(entity, page.data);
    const upsert = upsertOf(writes, toPageRecords(entity, page, records, logger));
    const counts = await runUpsert(db, job.connectorId, 'customers', upsert);
    rememberWords(job.connectorId, 'customers', counts.words ?? []);
    return { records, meta: page.meta };
  };
}

/** The worker's upsert with each record's search text and shadow, and no strings to take words from. */
function wordless(writes: Parameters<typeof changedUpsert>[0], records: readonly PageRecord[]): PreparedUpsert {
  return prepareUpsert(writes.connectorId, writes.entity, withShadows(records, writes.searchable, writes.lookup).map((r) => ({ ...r, strings: null })));
}

/** Sends a page's bytes on to the plain table as jsonb binary input; Postgres splits out ids and documents. */
async function forwardBytes(db: Kysely<DB>, body: Buffer): Promise<void> {
  // As jsonb binary input, as the worker's upsert sends records.
  await sql`insert into bare_forward (id, data) select r->>'id', r from jsonb_array_elements((${jsonbOf(body)}::jsonb)->'data') r`.execute(db);
}

/** A runtime page as the page loop takes it: its records and paging meta. */
const pageOf = (entity: EntityDef, page: RuntimePage): Page => ({ records: recordsOf(entity, page.data), meta: page.meta });

/**
 * Reads and parses one page as the worker's client does, and sends its bytes on unchanged: the
 * worker stores the bytes the runtime sent, never text encoded again, and the floor must not pay
 * for an encoding the worker does not do.
 */
function forwarding(db: Kysely<DB>, runtime: HttpConnectorRuntime, entity: EntityDef): (call: Call) => Promise<Page> {
  return async (call) => {
    const page = await runtime.execute(call);
    await forwardBytes(db, page.body ?? Buffer.from(JSON.stringify({ data: page.data })));
    return pageOf(entity, page);
  };
}

/** Reads one page and keeps its call: the transport floor replays the calls, which it cannot learn without parsing. */
function listing(runtime: HttpConnectorRuntime, entity: EntityDef, calls: Call[]): (call: Call) => Promise<Page> {
  return async (call) => {
    calls.push(call);
    return pageOf(entity, await runtime.execute(call));
  };
}

/** Reads every page with `readPage`, each call made from the page before; how many records they held. */
async function readEveryPage(def: ReturnType<typeof getConnectorDef>, entity: EntityDef, readPage: (call: Call) => Promise<Page>): Promise<number> {
  let records = 0;
  let params: Record<string, unknown> | null = firstPageParams(entity, {});
  while (params !== null) {
    const page = await readPage({ connectorType: 'payments', credentials: { api_key: 'k' }, ...readCall(entity), params: runtimeParams(def, entity, params) });
    records += page.records.length;
    params = nextPageParams(entity, params, page);
  }
  return records;
}

/** What the parent asks for. */
export interface BareWriterJob {
  readonly databaseUrl: string;
  readonly runtimeUrl: string;
  readonly connectorId: string;
  /** `derive` (the default): the worker's own steps; `no-words`, `no-search`: the same with fewer structures; `forward`: parse and pass the pages through; `transport`: pass their bytes through unparsed. */
  readonly mode?: DeriveMode | 'forward' | 'transport';
}

/** Which of the Postgres search structures a deriving bare writer writes: all, all but the word index, or none (as an OpenSearch deployment). */
export type DeriveMode = 'derive' | 'no-words' | 'no-search';

/** What the child answers: records written and the CPU it used doing so (all its threads). */
export type BareWriterAnswer = { readonly records: number; readonly cpuMicros: number; readonly systemMicros: number } | { readonly error: string };

/** The CPU this process uses (every thread) doing `work`, and the records it reports. */
async function measured(work: () => Promise<number>): Promise<BareWriterAnswer> {
  const before = process.cpuUsage();
  const records = await work();
  const used = process.cpuUsage(before);
  return { records, cpuMicros: used.user + used.system, systemMicros: used.system };
}

async function run(job: BareWriterJob): Promise<BareWriterAnswer> {
  const def = getConnectorDef('payments');
  const entity = getEntityDef(def, 'customers');
  const runtime = new HttpConnectorRuntime({ baseUrl: job.runtimeUrl, timeoutMs: 60_000 });
  const { db } = createDb(job.databaseUrl, 2);
  const mode = job.mode ?? 'derive';
  const passes = mode === 'forward' || mode === 'transport';
  try {
    if (passes) await sql`create unlogged table if not exists bare_forward (id text, data jsonb)`.execute(db);
    if (mode === 'transport') {
      // The calls are read first, unmeasured; then only their pages' bytes are moved.
      const calls: Call[] = [];
      const records = await readEveryPage(def, entity, listing(runtime, entity, calls));
      return await measured(async () => {
        for (const call of calls) await forwardBytes(db, await runtime.executeBytes(call));
        return records;
      });
    }
    return await measured(() => readEveryPage(def, entity, mode === 'forward' ? forwarding(db, runtime, entity) : deriving(db, runtime, entity, job, mode)));
  } finally {
    if (passes) await sql`drop table if exists bare_forward`.execute(db);
    await db.destroy();
  }
}

process.once('message', (job: BareWriterJob) => {
  run(job).then(
    (answer) => process.send?.(answer),
    (e: unknown) => process.send?.({ error: e instanceof Error ? e.message : String(e) }),
  );
});

// Exits through Node on SIGTERM, as the signal's default would not: a child run with
// BENCH_CHILD_ARGS=--cpu-prof writes its profile on the way out.
process.once('SIGTERM', () => process.exit(0));
