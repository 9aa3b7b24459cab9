/**
 * The store write alone: the page writer's record upsert (records table, its search indexes,
 * versions) for the same rows as the COPY baseline, on as many connections as a run's page
 * writes overlap, with nothing fetched and nothing else on the machine. It is the ceiling a full
 * sync can reach here, since a sync also pays for reading the third party on the same cores.
 * It runs in a database of its own, fresh like the one the COPY baseline and the sync start
 * from: measured after the sync in the same database, it ran 30 % slower (autovacuum and
 * checkpoints catching up on the sync's writes).
 */
import { getConnectorDef, getEntityDef } from '../src/connectors/catalog/index.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import { ensureEntityIndexes } from '../src/search/postgres/entity-indexes.js';
import { lookupFields, searchTarget } from '../src/search/target.js';
import { createDb } from '../src/store/db.js';
import { upsertPage, type PageRecord } from '../src/store/records-repo.js';
import { withShadows } from '../src/worker/page-writer.js';
import { benchDb } from './lib/stack.js';

const BATCH = 200;
const LANES = 2;

/** Seconds to upsert the dataset's first `n` customers, in 200-record transactions over two connections. */
export async function storeWriteSeconds(sandbox: Sandbox, n: number): Promise<number> {
  const ds = sandbox.dataset('payments', 'customers');
  const def = getEntityDef(getConnectorDef('payments'), 'customers');
  // Prepared as the worker prepares a page (JSON text, hash, keys, shadow), before the clock, as
  // the baseline's COPY lines are.
  const records: PageRecord[] = withShadows(
    Array.from({ length: n }, (_, i) => {
      const data = ds.recordAt(i) as Record<string, unknown>;
      return { id: String(data.id), data };
    }),
    def.searchable,
    lookupFields(def),
  );
  const batches: PageRecord[][] = [];
  for (let i = 0; i < n; i += BATCH) batches.push(records.slice(i, i + BATCH));
  const bench = await benchDb();
  const { db } = createDb(bench.pg.url, LANES);
  try {
    await ensureEntityIndexes(db, searchTarget('payments', 'customers'));
    const t = performance.now();
    await Promise.all(
      Array.from({ length: LANES }, async (_, lane) => {
        for (let b = lane; b < batches.length; b += LANES) {
          await db.transaction().execute((tx) => upsertPage(tx, bench.connectorId, 'customers', batches[b]!));
        }
      }),
    );
    return (performance.now() - t) / 1000;
  } finally {
    await db.destroy();
    await bench.close();
  }
}
