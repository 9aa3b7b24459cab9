/**
 * Ingest: a full sync of N sandbox records through runtime → worker (its own process) → store →
 * index, against a raw COPY of the same rows into a bare table in the same database; then the
 * same sync again with nothing changed; and the worker's peak RSS.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { buildDeps } from '../src/app/deps.js';
import { triggerSync } from '../src/app/operations.js';
import { createConnector, parseCreateConnector } from '../src/app/connector-service.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import { startSandboxServer } from '../src/sandbox/server.js';
import { getRun } from '../src/store/runs-repo.js';
import { createToken, ensureOrganization, findPrincipal } from '../src/store/tokens-repo.js';
import { spawnWorker } from '../test/integration/helpers/worker-process.js';
import { cpuPerRecord, cpuSnapshot, quiet, type CpuSnapshot } from './lib/cpu-share.js';
import { benchDb } from './lib/stack.js';
import { round, type Figure } from './lib/stats.js';
import { indexCostFigures, indexedCopy, indexShare } from './indexed-copy.js';
import { storeWriteSeconds } from './store-write.js';
import { leastDerivations } from './least-derivation.js';
import type { LeastDerivation } from './lib/least-derivation-process.js';
import { bareWriterCpu } from './bare-writer.js';
import type { DeriveMode } from './lib/bare-writer-process.js';
import { insertConnectorRow } from '../test/conformance/postgres-page.js';

const copyText = (s: string): string => s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');

/** Seconds to COPY the dataset's rows (id, jsonb) into a bare table. */
async function copyBaseline(url: string, sandbox: Sandbox, n: number): Promise<number> {
  const ds = sandbox.dataset('payments', 'customers');
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = ds.recordAt(i);
    lines.push(`${copyText(String(r.id))}\t${copyText(JSON.stringify(r))}\n`);
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('create table copy_baseline (id text, data jsonb)');
    const t = performance.now();
    await pipeline(Readable.from(lines), client.query(copyFrom('copy copy_baseline (id, data) from stdin')));
    return (performance.now() - t) / 1000;
  } finally {
    await client.end();
  }
}

/** Peak resident set (VmHWM) of a process, in MB. */
async function peakRssMb(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function waitRun(db: Parameters<typeof getRun>[0], id: string): Promise<void> {
  for (;;) {
    const run = await getRun(db, id);
    if (run?.status === 'succeeded') return;
    if (run !== null && ['failed', 'cancelled'].includes(run.status)) throw new Error(`run ${id} ${run.status}: ${run.error?.message}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The full sync's CPU per record, per process, and the machine's busy and idle time. The worker's
 * own CPU has a target (the text-search issue), shown beside the pure write-path work measured
 * in a process of its own (least-derivation.ts): the floor of the worker's figure with these structures;
 * and beside it the bare writer's (bare-writer.ts): that work with its I/O, and nothing else; and
 * the forward floor's: the I/O and parse alone, under any worker that derives in JavaScript; and
 * the least derivation's (the same process), which no code writing these structures avoids: from
 * parsed records, and from the records' bytes for a worker that never parses (beside the
 * transport floor, which does not parse either).
 */
function cpuFigures(before: CpuSnapshot | null, after: CpuSnapshot | null, n: number, floor: LeastDerivation['pure'], least: Least, bare: BareWriters | null): Figure[] {
  if (before === null || after === null) return [];
  const { groups, busy, idle } = cpuPerRecord(before, after, n);
  const figure = (name: string, value: number, note?: string): Figure => ({ group: 'ingest cpu', name, unit: 'µs/rec', value: round(value, 1), baseline: null, ratio: null, target: 'reported', pass: null, ...(note === undefined ? {} : { note }) });
  const steps = Object.entries(floor.steps).map(([k, v]) => `${k} ${round(v, 1)}`).join(', ');
  const worker = (groups.worker?.user ?? 0) + (groups.worker?.system ?? 0);
  return [
    { ...figure('full sync: worker', worker, `${round(groups.worker?.system ?? 0, 1)} of it system; baseline: the pure write-path work alone, in a process of its own (${steps} µs)`), baseline: round(floor.total, 1), ratio: round(worker / floor.total, 2), target: '≤ 50 µs/rec', pass: worker <= 50 },
    { ...figure('full sync: the worker\'s minor page faults', groups.worker?.faults ?? 0, 'each a page of memory the worker touched for the first time; the machine figure "fresh memory" says what one costs here'), unit: 'faults/rec', value: round(groups.worker?.faults ?? 0, 2) },
    ...['postgres', 'bench'].map((g) => figure(g === 'bench' ? 'full sync: bench process (serves the sandbox)' : `full sync: ${g}`, (groups[g]?.user ?? 0) + (groups[g]?.system ?? 0), `${round(groups[g]?.system ?? 0, 1)} of it system`)),
    figure('full sync: whole machine busy', busy, `${round(idle, 1)} µs/rec idle`),
    ...(bare === null ? [] : [
      figure('bare writer: fetch, parse, derive, upsert, one page at a time, nothing else', bare.derive.perRecord, `${round(bare.derive.system, 1)} of it system; the least CPU a worker writing these structures uses here, ${bare.derive.records} records`),
      figure('bare writer without the word index (search text, shadow and lookup keys kept)', bare['no-words'].perRecord, `${round(bare['no-words'].system, 1)} of it system; the word index (words hashed, the vocabulary's new words found and written) costs the bare writer ${round(bare.derive.perRecord - bare['no-words'].perRecord, 1)} µs/rec`),
      figure('bare writer as an OpenSearch deployment writes (no lookup keys, search text or words)', bare['no-search'].perRecord, `${round(bare['no-search'].system, 1)} of it system; the search text, shadow and lookup keys cost the bare writer ${round(bare['no-words'].perRecord - bare['no-search'].perRecord, 1)} µs/rec more, every Postgres search structure ${round(bare.derive.perRecord - bare['no-search'].perRecord, 1)}`),
      figure('forward floor: fetch, parse, pass the page bytes on to Postgres, nothing derived', bare.forward.perRecord, `${round(bare.forward.system, 1)} of it system; the least CPU any worker that parses records in JavaScript uses here, whatever it derives`),
      figure('least derivation: JSON text, sha1, strings lower-cased, one pass over their characters, text serialized', least.parsed, 'in a process of its own, best of 3: what any JavaScript worker writing the text and word structures does besides reading and parsing the page'),
      { ...figure('forward floor + least derivation', bare.forward.perRecord + least.parsed, 'the least CPU per record a worker that parses its pages and writes these structures can use on this machine'), target: 'the limit under a parsing worker', pass: null },
      figure('transport floor: fetch the page bytes, pass them on to Postgres, nothing decoded or parsed', bare.transport.perRecord, `${round(bare.transport.system, 1)} of it system; the least CPU any worker uses here, whether it parses or not`),
      figure('least byte-level derivation: the least derivation from each record\'s bytes, its searchable strings found by one pass over its text', least.bytes, 'in a process of its own, best of 3: what a worker that never parses its pages does besides reading them'),
      { ...figure('transport floor + least byte-level derivation', bare.transport.perRecord + least.bytes, 'the least CPU per record a worker that never parses its pages and writes these structures can use on this machine'), target: 'the limit under a worker that reads bytes', pass: null },
      { ...figure('the lesser of the two limits', Math.min(bare.forward.perRecord + least.parsed, bare.transport.perRecord + least.bytes), 'no JavaScript worker writing these structures, parsing or not, uses less here'), target: 'the hard limit under the worker figure', pass: null },
    ]),
  ];
}

/** The least derivation's CPU per record, from parsed records and from their bytes. */
interface Least {
  readonly parsed: number;
  readonly bytes: number;
}

type BareWriters = Record<DeriveMode | 'forward' | 'transport', Awaited<ReturnType<typeof bareWriterCpu>>>;

/** The bare writer and the forward and transport floors, each writing the same pages as a tenant of its own in the bench's database. */
async function bareWriters(b: Awaited<ReturnType<typeof benchDb>>, runtimeUrl: string): Promise<BareWriters> {
  const modes = ['derive', 'no-words', 'no-search', 'forward', 'transport'] as const;
  const out: Partial<BareWriters> = {};
  for (const mode of modes) out[mode] = await bareWriterCpu({ databaseUrl: b.pg.url, runtimeUrl, connectorId: await insertConnectorRow(b.db, 'payments'), mode });
  return out as BareWriters;
}

/** Rows of the per-index COPYs: each variant copies them once (about 10 s apiece with every index, on a machine of 3,400 rows/s). */
const INDEX_COST_ROWS = 30_000;

/** Runs the ingest benchmark; `memoryN` > 0 also measures the worker's peak RSS on that many records. */
export async function ingestBench(n: number, log: (s: string) => void, opts: { resync?: boolean; copy?: boolean } = {}): Promise<Figure[]> {
  const sandbox = new Sandbox({ defaultSize: n });
  sandbox.configure({ connectorType: 'payments', entity: 'customers', size: n });
  const writeSec = opts.copy === false ? Number.NaN : await storeWriteSeconds(sandbox, n);
  if (opts.copy !== false) log(`ingest: store write alone ${round(writeSec)} s (${Math.round(n / writeSec)} rec/s)`);
  const structure = opts.copy === false ? null : await indexedCopy(sandbox, n, INDEX_COST_ROWS);
  const indexedSec = structure?.seconds ?? Number.NaN;
  const costs = structure?.costs ?? null;
  if (costs !== null) {
    log(`ingest: COPY into the same structure (records' indexes) ${round(indexedSec)} s (${Math.round(n / indexedSec)} rows/s)`);
    log(`ingest: each index's share of the same-structure COPY (${costs.n} rows): ${costs.each.map((e) => `${e.label} ${indexShare(costs, e.secondsWithout)} %`).join(', ')}`);
  }
  const b = await benchDb();
  // Like the COPY baseline's rows, the third party's records exist before the clock starts.
  if (opts.resync !== false) sandbox.dataset('payments', 'customers').prerender();
  const sb = await startSandboxServer({ port: 0, sandbox });
  const env = { DATABASE_URL: b.pg.url, CONNECTOR_RUNTIME_URL: sb.url, CREDENTIALS_KEY: `k1:${randomBytes(32).toString('base64')}`, CURSOR_SECRET: randomBytes(24).toString('hex'), QUEUE_BACKEND: 'postgres', LOG_LEVEL: 'warn' };
  const deps = buildDeps(loadConfig(env), { logger: createLogger('warn') });
  const worker = spawnWorker(env);
  try {
    const copySec = opts.copy === false ? Number.NaN : await copyBaseline(b.pg.url, sandbox, n);
    if (opts.copy !== false) log(`ingest: COPY of ${n} rows ${round(copySec)} s (${Math.round(n / copySec)} rows/s)`);
    const principal = await findPrincipal(deps.db, (await createToken(deps.db, await ensureOrganization(deps.db, 'bench'))).token);
    const groupOf = (pid: number, cmd: string): string => (pid === worker.child.pid ? 'worker' : pid === process.pid ? 'bench' : /postgres/.test(cmd) ? 'postgres' : 'other');
    // A worker is a long-lived process: its start (modules loaded and compiled, about a second
    // of CPU here) is not work per record, so the clock starts once it idles.
    await quiet(worker.child.pid as number);
    const cpuBefore = cpuSnapshot(groupOf);
    const t0 = performance.now();
    const connector = await createConnector(deps, principal!, parseCreateConnector({ external_user_id: 'b', connector_type: 'payments', name: 'bench', credentials: { api_key: 'k' }, replication_config: { entities: ['customers'] } }));
    const [first] = await deps.db.selectFrom('sync_runs').select('id').where('connector_id', '=', connector.id).execute();
    await waitRun(deps.db, first!.id);
    const syncSec = (performance.now() - t0) / 1000;
    const cpuAfter = cpuSnapshot(groupOf);
    // The bare writer writes the same pages as another tenant, in the same database.
    const bare = opts.resync === false ? null : await bareWriters(b, sb.url);
    if (bare !== null) log(`ingest: bare writer ${round(bare.derive.perRecord, 1)} µs/rec (${round(bare.derive.system, 1)} system), without the word index ${round(bare['no-words'].perRecord, 1)}, as an OpenSearch deployment writes ${round(bare['no-search'].perRecord, 1)}; forward floor ${round(bare.forward.perRecord, 1)} µs/rec (${round(bare.forward.system, 1)} system); transport floor ${round(bare.transport.perRecord, 1)} µs/rec (${round(bare.transport.system, 1)} system)`);
    const { pure: floor, ...least } = await leastDerivations({ size: n, n: Math.min(n, 20_000) });
    log(`ingest: pure write-path work ${round(floor.total, 1)} µs/rec in a process of its own (${Object.entries(floor.steps).map(([k, v]) => `${k} ${round(v, 1)}`).join(', ')})`);
    log(`ingest: least derivation ${round(least.parsed, 1)} µs/rec in a process of its own, ${round(least.bytes, 1)} from the records' bytes`);
    const cpu = cpuFigures(cpuBefore, cpuAfter, n, floor, least, bare);
    log(`ingest: full sync ${round(syncSec)} s (${Math.round(n / syncSec)} rec/s)`);
    if (opts.resync === false) {
      const peak = await peakRssMb(worker.child.pid as number);
      log(`memory: ${n}-record sync ${round(syncSec)} s, worker peak RSS ${round(peak)} MB`);
      return [{ group: 'memory', name: `worker peak RSS, ${n}-record sync`, unit: 'MB', value: round(peak), baseline: null, ratio: null, target: '≤ 300 MB', pass: peak <= 300, note: `${Math.round(n / syncSec)} rec/s` }];
    }
    const before = await sql<{ v: string }>`select coalesce(max(version), 0)::text as v from records`.execute(deps.db);
    const t1 = performance.now();
    const [again] = await triggerSync(deps, connector.id, { entity: 'customers', mode: 'full' });
    await waitRun(deps.db, again!.id);
    const resyncSec = (performance.now() - t1) / 1000;
    // Every insert, update or tombstone takes a new version: rows written = rows with a newer one.
    const after = await sql<{ n: string }>`select count(*)::text as n from records where version > ${before.rows[0]?.v ?? '0'}::bigint`.execute(deps.db);
    const written = Number(after.rows[0]?.n ?? 0);
    const rss = await peakRssMb(worker.child.pid as number);
    log(`ingest: re-sync ${round(resyncSec)} s, rows written ${written}; worker peak RSS ${round(rss)} MB`);
    const ratio = n / syncSec / (n / copySec);
    return [
      { group: 'ingest', name: `full sync ${n} records`, unit: 'rec/s', value: Math.round(n / syncSec), baseline: Math.round(n / copySec), ratio: round(ratio, 3), target: '≥ 0.5× COPY', pass: ratio >= 0.5 },
      { group: 'ingest', name: `full sync ${n} records vs COPY into the same structure`, unit: 'rec/s', value: Math.round(n / syncSec), baseline: Math.round(n / indexedSec), ratio: round(indexedSec / syncSec, 3), target: '≥ 0.5× same-structure COPY', pass: indexedSec / syncSec >= 0.5, note: `bare-table COPY ${Math.round(n / copySec)} rows/s; the indexes cost ${round(indexedSec / copySec, 2)}× its time` },
      { group: 'ingest', name: 'store write alone (upserts on 2 connections, nothing fetched)', unit: 'rec/s', value: Math.round(n / writeSec), baseline: Math.round(n / copySec), ratio: round(copySec / writeSec, 3), target: 'reported: the full sync\'s ceiling', pass: null },
      ...cpu,
      ...(costs === null ? [] : indexCostFigures(costs)),
      { group: 'ingest', name: 're-sync unchanged: duration', unit: 's', value: round(resyncSec), baseline: round(syncSec), ratio: round(resyncSec / syncSec), target: '≤ 0.5× first sync', pass: resyncSec / syncSec <= 0.5 },
      { group: 'ingest', name: 're-sync unchanged: record rows written', unit: 'rows', value: written, baseline: null, ratio: null, target: '0', pass: written === 0 },
      { group: 'memory', name: `worker peak RSS, ${n}-record sync`, unit: 'MB', value: round(rss), baseline: null, ratio: null, target: '≤ 300 MB', pass: rss <= 300 },
    ];
  } finally {
    await worker.kill('SIGTERM');
    await deps.close();
    await sb.close();
    await b.close();
  }
}
