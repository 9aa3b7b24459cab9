/** Writes pages: their records and the run's checkpoint in one transaction (DESIGN §5). */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { projectSearchable, textShadow } from '../search/doc.js';
import { lookupKeys } from '../search/postgres/lookup-index.js';
import type { DB } from '../store/db.js';
import { contentHash, liveHashes, lockEntity, markSeen, upsertPage, type PageRecord } from '../store/records-repo.js';
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

const ASCII_JSON = /^[\x00-\x7f]*$/;

/**
 * Adds what the Postgres search backend queries besides the document: the (sparse) text shadow
 * of the searchable fields (a record whose JSON text is all ASCII needs none) and the `keys`
 * of its lookup fields.
 */
export function withShadows(records: readonly PageRecord[], searchable: Readonly<Record<string, unknown>> | undefined, lookup: readonly string[] = []): PageRecord[] {
  if (searchable === undefined) return [...records];
  return records.map((r) => ({
    ...r,
    shadow: r.json !== undefined && ASCII_JSON.test(r.json) ? null : (textShadow(projectSearchable(searchable, r.data)) ?? null),
    keys: lookupKeys(lookup, r.data),
  }));
}

/** Serializes each record once: its JSON text feeds both the content hash and the payload. */
export function withJson(records: readonly PageRecord[]): PageRecord[] {
  return records.map((r) => {
    const json = r.json ?? JSON.stringify(r.data);
    return { ...r, json, hash: r.hash ?? contentHash(r.data, json) };
  });
}

export async function writePage(
  db: Kysely<DB>,
  run: { id: string; connectorId: string; entity: string; mode: RunMode; attempt?: number; searchable?: Readonly<Record<string, unknown>> | undefined; lookup?: readonly string[] },
  records: readonly PageRecord[],
  checkpoint: RunCheckpoint,
  pages = 1,
): Promise<PageResult> {
  const unique = withJson(dedupeById(records));
  return db.transaction().execute(async (tx) => {
    await lockEntity(tx, run.connectorId, run.entity);
    // Unchanged records skip the shadow and the upsert: a re-sync of unchanged data is reads only.
    const stored = await liveHashes(tx, run.connectorId, run.entity, unique.map((r) => r.id));
    const changed = withShadows(unique.filter((r) => stored.get(r.id) !== r.hash), run.searchable, run.lookup);
    const counts = await upsertPage(tx, run.connectorId, run.entity, changed);
    if (run.mode === 'full') await markSeen(tx, run.id, unique.map((r) => r.id));
    const result = { seen: unique.length, inserted: counts.inserted, updated: counts.updated, unchanged: unique.length - changed.length + counts.unchanged };
    // A run cancelled while this page was in flight must not gain the page: roll it back.
    if (!(await recordPage(tx, run.id, checkpoint, { ...result, pages }, run.attempt))) throw new RunNotRunning(run.id);
    return result;
  });
}

/** Thrown inside a page transaction when the run stopped running (cancelled); rolls the page back. */
export class RunNotRunning extends AppError {
  constructor(runId: string) {
    super('conflict', `run ${runId} is no longer running`);
  }
}
