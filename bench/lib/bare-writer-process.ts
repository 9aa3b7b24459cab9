/**
 * A child process (forked by ../bare-writer.ts) that does only what any worker writing the
 * Postgres search structures must do per record, with the worker's own code for each step: read
 * the pages from the runtime over HTTP, parse them, derive each record's row (JSON text, hash,
 * lookup keys, shadow, search text, words), and upsert them with the worker's statement, one page
 * after the other. No queue, run, checkpoint, lock, seen-set or overlapping writes. Its CPU per
 * record is the least a worker with these structures can use on this machine, I/O included.
 */
import { getConnectorDef, getEntityDef } from '../../src/connectors/catalog/index.js';
import { firstPageParams, nextPageParams, readCall, recordsOf, runtimeParams, withDerivedFields } from '../../src/connectors/planner.js';
import { HttpConnectorRuntime } from '../../src/connectors/runtime-client.js';
import { lookupFields } from '../../src/search/target.js';
import { createDb } from '../../src/store/db.js';
import { runUpsert } from '../../src/store/records-repo.js';
import { rememberWords } from '../../src/store/vocab-repo.js';
import { changedUpsert } from '../../src/worker/page-writer.js';

/** What the parent asks for. */
export interface BareWriterJob {
  readonly databaseUrl: string;
  readonly runtimeUrl: string;
  readonly connectorId: string;
}

/** What the child answers: records written and the CPU it used doing so (all its threads). */
export type BareWriterAnswer = { readonly records: number; readonly cpuMicros: number; readonly systemMicros: number } | { readonly error: string };

async function run(job: BareWriterJob): Promise<BareWriterAnswer> {
  const def = getConnectorDef('payments');
  const entity = getEntityDef(def, 'customers');
  const writes = { connectorId: job.connectorId, entity: 'customers', searchable: entity.searchable, lookup: lookupFields(entity) };
  const runtime = new HttpConnectorRuntime({ baseUrl: job.runtimeUrl, timeoutMs: 60_000 });
  const { db } = createDb(job.databaseUrl, 2);
  try {
    const before = process.cpuUsage();
    let records = 0;
    let params: Record<string, unknown> | null = firstPageParams(entity, {});
    while (params !== null) {
      const page = await runtime.execute({ connectorType: 'payments', credentials: { api_key: 'k' }, ...readCall(entity), params: runtimeParams(def, entity, params) });
      const raw = recordsOf(entity, page.data);
      const upsert = changedUpsert(writes, raw.map((r) => {
        const data = withDerivedFields(entity, r);
        return { id: String(data[entity.idField]), data };
      }));
      const counts = await runUpsert(db, job.connectorId, 'customers', upsert);
      rememberWords(job.connectorId, 'customers', counts.words ?? []);
      records += raw.length;
      params = nextPageParams(entity, params, { records: raw, meta: page.meta });
    }
    const used = process.cpuUsage(before);
    return { records, cpuMicros: used.user + used.system, systemMicros: used.system };
  } finally {
    await db.destroy();
  }
}

process.once('message', (job: BareWriterJob) => {
  run(job).then(
    (answer) => process.send?.(answer),
    (e: unknown) => process.send?.({ error: e instanceof Error ? e.message : String(e) }),
  );
});
