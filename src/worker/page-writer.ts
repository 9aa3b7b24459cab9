/** Writes one page: records and the run's checkpoint in one transaction (DESIGN §5). */
import type { Kysely } from 'kysely';
import type { DB } from '../store/db.js';
import { lockEntity, markSeen, upsertPage, type PageRecord } from '../store/records-repo.js';
import { recordPage } from '../store/runs-repo.js';
import type { RunCheckpoint, RunMode } from '../store/schema.js';

/** Counts of one written page. */
export interface PageResult {
  readonly seen: number;
  readonly inserted: number;
  readonly updated: number;
  readonly unchanged: number;
}

/** Keeps the last occurrence of each id: one statement cannot upsert a row twice. */
export function dedupeById(records: readonly PageRecord[]): PageRecord[] {
  const byId = new Map<string, PageRecord>();
  for (const r of records) byId.set(r.id, r);
  return [...byId.values()];
}

export async function writePage(
  db: Kysely<DB>,
  run: { id: string; connectorId: string; entity: string; mode: RunMode },
  records: readonly PageRecord[],
  checkpoint: RunCheckpoint,
): Promise<PageResult> {
  const unique = dedupeById(records);
  return db.transaction().execute(async (tx) => {
    await lockEntity(tx, run.connectorId, run.entity);
    const counts = await upsertPage(tx, run.connectorId, run.entity, unique);
    if (run.mode === 'full') await markSeen(tx, run.id, unique.map((r) => r.id));
    const result = { seen: unique.length, ...counts };
    await recordPage(tx, run.id, checkpoint, result);
    return result;
  });
}
