/** Writes pages: their records and the run's checkpoint in one transaction (DESIGN §5). */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import type { LockTurn } from './batch-writer.js';
import { searchableShadow } from '../search/doc.js';
import { lookupKeys } from '../search/postgres/lookup-index.js';
import type { DB } from '../store/db.js';
import { markTextIncomplete } from '../store/entity-state-repo.js';
import { recordSearchText } from '../search/postgres/search-text.js';
import { rememberWords } from '../store/page-words.js';
import { contentHash, liveHashes, lockEntity, prepareUpsert, runUpsert, storedHashMatches, type PageRecord, type PreparedUpsert } from '../store/records-repo.js';
import { recordPageWrite } from '../store/runs-repo.js';
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

/**
 * Readies records for writing, once per record and before the page's transaction, so it
 * overlaps with the write in flight: the content hash, of the record's bytes as the runtime sent
 * them (`source`), or else of its JSON text, serialized here once for both the hash and the
 * payload. Prepared records pass through unchanged.
 */
export function prepareRecords(records: readonly PageRecord[]): PageRecord[] {
  return records.map((r) => {
    if (r.hash !== undefined && (r.json !== undefined || r.source !== undefined)) return r;
    if (r.source !== undefined) return { ...r, hash: contentHash(r.source) };
    const json = r.json ?? JSON.stringify(r.data);
    return { ...r, json, hash: r.hash ?? contentHash(json) };
  });
}

/**
 * Adds what only a changed record needs, inside the write (a re-sync of unchanged data pays for
 * none of it): the `keys` of the entity's lookup fields and the (sparse) text shadow of the
 * searchable fields, which the Postgres search backend queries besides the document (only
 * strings with a non-ASCII character have one). With `text`, the search text and strings too,
 * from the same walk as the shadow.
 */
export function withShadows(records: readonly PageRecord[], searchable: Readonly<Record<string, unknown>> | undefined, lookup: readonly string[] = [], text = true): PageRecord[] {
  // Records a page writer hands in are prepared already: prepareRecords passes them through.
  return prepareRecords(records).map((r) => {
    const keys = r.keys ?? lookupKeys(lookup, r.data);
    if (searchable === undefined) return { ...r, keys };
    const found = text ? recordSearchText(searchable, r.data, true) : null;
    const shadow = found !== null ? (found.shadow ?? null) : (searchableShadow(searchable, r.data) ?? null);
    return { id: r.id, data: r.data, json: r.json, source: r.source, hash: r.hash, keys, shadow, text: found?.text ?? null, strings: found?.strings ?? null };
  });
}

/**
 * The upsert of a page's changed records, derived (withShadows) straight into the statement's
 * payload: nothing derived per record outlives this call into the statement's round trip, where
 * the worker goes on reading the next pages and every young collection would copy it.
 */
export function changedUpsert(run: Pick<PageRun, 'connectorId' | 'entity' | 'searchable' | 'lookup' | 'text'>, records: readonly PageRecord[]): PreparedUpsert {
  return prepareUpsert(run.connectorId, run.entity, withShadows(records, run.searchable, run.lookup, run.text !== false));
}

/** The run a page belongs to, as its write needs it. */
export interface PageRun {
  readonly id: string;
  readonly connectorId: string;
  readonly entity: string;
  readonly mode: RunMode;
  readonly attempt?: number;
  readonly searchable?: Readonly<Record<string, unknown>> | undefined;
  readonly lookup?: readonly string[];
  /** Page writes of this run may overlap (no index shipping that needs versions in commit order). */
  readonly overlapWrites?: boolean;
  /** Keep `text_lc` and `words` for the Postgres backend's text indexes (false: OpenSearch answers searches). */
  readonly text?: boolean;
}

export async function writePage(
  db: Kysely<DB>,
  run: PageRun,
  records: readonly PageRecord[],
  checkpoint: RunCheckpoint,
  pages = 1,
  previous: Promise<unknown> = Promise.resolve(),
  turn: LockTurn = { before: Promise.resolve(), taken: () => undefined, key: null, after: null },
): Promise<PageResult> {
  const unique = prepareRecords(dedupeById(records));
  let previousEnded = false;
  const ended = () => (previousEnded = true);
  previous.then(ended, ended);
  // Before taking a pooled connection: waiting for the turn while holding one could starve the
  // pool of the connection the previous write still needs. Its failure surfaces at `previous`.
  await turn.before.catch(() => undefined);
  let committed = (): void => undefined;
  const result = await db.transaction().execute(async (tx) => {
    await lockEntity(tx, run.connectorId, run.entity, run.overlapWrites === true ? 'shared' : 'exclusive', turn.key);
    turn.taken();
    // Unchanged records skip the shadow and the upsert: a re-sync of unchanged data is reads only.
    // A full run's seen-set gains the page's ids in the same round trip.
    const stored = await liveHashes(tx, run.connectorId, run.entity, unique.map((r) => r.id), run.mode === 'full' ? run.id : null);
    const changed = unique.filter((r) => !storedHashMatches(stored.get(r.id), r));
    // Not live before (new, or tombstoned): live after this write. Ids are unique within the write,
    // and no other write of the entity touches them meanwhile (entity lock, disjoint overlaps).
    const becameLive = changed.reduce((n, r) => n + (stored.has(r.id) ? 0 : 1), 0);
    const counts = await runUpsert(tx, run.connectorId, run.entity, changedUpsert(run, changed));
    committed = () => rememberWords(run.connectorId, run.entity, counts.words ?? []);
    const result = { seen: unique.length, inserted: counts.inserted, updated: counts.updated, unchanged: unique.length - changed.length + counts.unchanged };
    // The checkpoint commits after the batch before it (which may still be in flight): a
    // checkpoint must never cover pages that were not committed. Its failure rolls this one back.
    // This transaction holds rows meanwhile: it waits where Postgres sees it (batch-writer.ts),
    // in the statement that records the page.
    const recorded = await recordPageWrite(tx, {
      id: run.id,
      checkpoint,
      counters: { ...result, pages },
      attempt: run.attempt,
      after: turn.after !== null && !previousEnded ? turn.after : null,
      live: { connectorId: run.connectorId, entity: run.entity, delta: becameLive },
    });
    await previous;
    // A run cancelled while this page was in flight must not gain the page: roll it back.
    if (!recorded) throw new RunNotRunning(run.id);
    // Entity state after the run row too: page writes that overlap locked them in the other
    // order here once and deadlocked (two pages of a run writing without search text).
    if (run.text === false && changed.length > 0 && run.searchable !== undefined) await markTextIncomplete(tx, run.connectorId, run.entity);
    return result;
  });
  committed();
  return result;
}

/** Thrown inside a page transaction when the run stopped running (cancelled); rolls the page back. */
export class RunNotRunning extends AppError {
  constructor(runId: string) {
    super('conflict', `run ${runId} is no longer running`);
  }
}
