/**
 * Searches of one entity while every searchable entity of the catalog has its sort indexes: what
 * a deployment syncing every kind of entity pays. The planner opens every index of a table it
 * plans; `records` is partitioned by entity (migration 0014) so that a search opens its own
 * entity's alone. Measured in the same run: the same searches just before the other entities'
 * indexes are built, and just after.
 */
import { sql, type Kysely } from 'kysely';
import { catalog, searchableEntities } from '../src/connectors/catalog/index.js';
import { ensureEntityIndexes } from '../src/search/postgres/entity-indexes.js';
import { runSearch } from '../src/search/search-service.js';
import { searchTarget } from '../src/search/target.js';
import type { DB } from '../src/store/db.js';
import type { Case } from './search-cases.js';
import { round, summarize, timeIt, type Figure } from './lib/stats.js';

type Deps = Parameters<typeof runSearch>[0];
type Connector = { id: string; connectorType: string };

/** A search to measure: its case and the connector it searches. */
export interface Probe {
  readonly label: string;
  readonly connector: Connector;
  readonly c: Case;
}

async function p95s(deps: Deps, probes: readonly Probe[], reps: number): Promise<ReturnType<typeof summarize>[]> {
  const out: ReturnType<typeof summarize>[] = [];
  for (const p of probes) out.push(summarize(await timeIt(reps, () => runSearch(deps, p.connector, 'customers', p.c.params()))));
  return out;
}

/** The probes' p95 with one entity's sort indexes, then with every catalog entity's. */
export async function manyEntitiesFigures(db: Kysely<DB>, deps: Deps, probes: readonly Probe[], reps: number, log: (s: string) => void): Promise<Figure[]> {
  const before = await p95s(deps, probes, reps);
  for (const [type, def] of Object.entries(catalog)) for (const e of searchableEntities(def)) await ensureEntityIndexes(db, searchTarget(type, e.name));
  const { rows } = await sql<{ indexes: number; partitions: number }>`
    select count(*)::int as indexes, count(distinct i.indrelid)::int as partitions
      from pg_index i join pg_inherits h on h.inhrelid = i.indrelid where h.inhparent = 'records'::regclass`.execute(db);
  const shape = `${rows[0]?.indexes ?? 0} indexes on ${rows[0]?.partitions ?? 0} partitions`;
  const after = await p95s(deps, probes, reps);
  log(`  every catalog entity's sort indexes (${shape}): ${probes.map((p, i) => `${p.label} p95 ${round(before[i]!.p95)} → ${round(after[i]!.p95)} ms`).join('; ')}`);
  return probes.map((p, i) => {
    const ours = after[i]!;
    const base = before[i]!;
    return {
      group: 'search',
      name: `${p.label}, every catalog entity's sort indexes p95`,
      unit: 'ms',
      value: round(ours.p95),
      baseline: round(base.p95),
      ratio: round(ours.p95 / base.p95),
      target: p.c.target === null ? 'report' : `≤ ${p.c.target} ms`,
      pass: p.c.target === null ? null : ours.p95 <= p.c.target,
      note: `p50 ${round(ours.p50)} (before ${round(base.p50)}); ${shape}; baseline: the same search just before the other entities' indexes were built`,
    };
  });
}
