import { hash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from './db.js';
import { executeStatement } from './prepared-statements.js';
import { int4ArrayBinary } from './int4-array-binary.js';
import { jsonbArray, jsonbArrayOfTexts } from './jsonb-binary.js';
import { textArrayLiteral } from './text-array-literal.js';
import { indexWords, type HashedEntry, type PageWordHashes } from './page-words.js';
import { vocabInsert } from './vocab-repo.js';
import type { RecordStrings } from '../search/postgres/word-index.js';

/** One record of a page, keyed by its id in the entity's id field. */
export interface PageRecord {
  readonly id: string;
  readonly data: Record<string, unknown>;
  /** Text shadow of the searchable fields (src/search/doc.ts); null for unsearchable entities. */
  readonly shadow?: unknown;
  /** The content hash of the record's JSON (contentHash); computed on write when absent. */
  readonly hash?: string;
  /** Its lookup fields (src/search/postgres/lookup-index.ts); null or absent when none. */
  readonly keys?: unknown;
  /** The record's JSON text, when the caller has it (serialized once for hash and payload). */
  readonly json?: string;
  /** The record's JSON as the runtime sent it (UTF-8), when the page could be cut at it: hashed and stored instead of `json`. */
  readonly source?: Uint8Array;
  /** Its searchable strings lower-cased (src/search/postgres/text-index.ts); null when not kept. */
  readonly text?: string | null;
  /** Its searchable strings with their paths, whose words it is indexed by (src/search/postgres/word-index.ts); null when not kept. */
  readonly strings?: RecordStrings | null;
}

/**
 * The content hash of a record: sha1 of its JSON text (as UTF-8), 40 hex digits. Until session 35
 * it was md5 (32 digits), which took this machine 1.6 µs per 1.2 KB record against sha1's 0.74
 * (SHA extensions): a stored md5 hash is still told apart and compared as md5
 * ({@link storedHashMatches}), so an upgrade rewrites no unchanged record.
 */
export function contentHash(json: string | Uint8Array): string {
  return hash('sha1', json);
}

/** A record's JSON as it is hashed and stored: the runtime's bytes, else its JSON text (serialized when absent). */
export function recordJson(record: PageRecord): string | Uint8Array {
  return record.source ?? record.json ?? JSON.stringify(record.data);
}

/** Length of a content hash stored before session 35 (md5, hex). */
const MD5_HEX_LENGTH = 32;

/** Whether `stored`, a record's stored content hash, is that of `record` (prepared: its hash computed). */
export function storedHashMatches(stored: string | undefined, record: PageRecord): boolean {
  if (stored === undefined) return false;
  if (stored.length !== MD5_HEX_LENGTH) return stored === record.hash;
  return stored === hash('md5', recordJson(record));
}

/**
 * The upsert payload: the records' JSON as one JSON array, and what each record adds ({id, hash,
 * shadow, keys, text}, and where its words lie in `words`) as another, row i of one beside row i
 * of the other. Both are bytes in jsonb's binary input format (jsonb-binary.ts): a record's
 * source bytes go unchanged, and no text is encoded again. `words` holds every record's word
 * hashes, one after the other, as a binary int4[] (int4-array-binary.ts).
 */
export interface UpsertPayload {
  readonly rows: Buffer;
  readonly data: Buffer;
  readonly words: Buffer;
}

/** Builds a page's {@link UpsertPayload}; `words[i]` are record i's word hashes (null: none kept). */
export function upsertPayload(records: readonly PageRecord[], words: PageWordHashes): UpsertPayload {
  const jsons = records.map((r) => {
    const json = recordJson(r);
    return typeof json === 'string' ? Buffer.from(json) : json;
  });
  // Record i's words are elements w0 + 1 to w0 + wn of `words` (wn null: none kept).
  const rows = records.map((r, i) => {
    const w0 = words.start(i);
    return { id: r.id, hash: r.hash ?? contentHash(jsons[i] as Uint8Array), shadow: r.shadow ?? null, keys: r.keys ?? null, text: r.text ?? null, w0: Math.max(w0, 0), wn: w0 < 0 ? null : words.count(i) };
  });
  return { rows: jsonbArray(rows), data: jsonbArrayOfTexts(jsons), words: int4ArrayBinary(words.hashes) };
}

/**
 * Stored hashes of live records among `ids` (tombstoned or missing ones are absent). With
 * `seenBy`, a full run's id, the ids also join that run's seen-set (migration 0003), one row per
 * page batch, in the same round trip: a page write reads the hashes of the ids it saw anyway. A
 * retried batch adds them again, which the set difference in {@link tombstoneUnseen} ignores.
 */
export async function liveHashes(db: Db, connectorId: string, entity: string, ids: readonly string[], seenBy: string | null = null): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  // One array parameter, not an IN list of up to a batch's worth: the statement text stays the
  // same for every batch, and Postgres parses no list of hundreds of parameters per page. Its
  // literal is built once, for both places it goes.
  const idArray = textArrayLiteral(ids);
  const live = sql<{ record_id: string; content_hash: string }>`select record_id, content_hash from records
     where connector_id = ${connectorId}::uuid and entity = ${entity} and record_id = any(${idArray}::text[]) and deleted_at is null`;
  const { rows } = await (seenBy === null
    ? live
    : sql<{ record_id: string; content_hash: string }>`with seen as (insert into sync_run_seen_batches (run_id, record_ids) values (${seenBy}::bigint, ${idArray}::text[])) ${live}`
  ).execute(db);
  return new Map(rows.map((r) => [r.record_id, r.content_hash]));
}

/** What a page upsert changed. */
export interface UpsertCounts {
  inserted: number;
  updated: number;
  unchanged: number;
  /** Vocabulary words it wrote: remember them with `rememberWords` once the write commits. */
  words?: readonly HashedEntry[];
}

/**
 * Serializes writers and the index shipper of one (connector, entity) for the rest of the
 * transaction, so versions become visible in sequence order (the shipper never skips one).
 * `shared`: page writers of a backend that ships nothing (Postgres) may overlap each other, but
 * still exclude reset, reindex and the end of a run, which take it exclusively.
 */
export async function lockEntity(db: Db, connectorId: string, entity: string, mode: 'exclusive' | 'shared' = 'exclusive', writeKey: string | null = null): Promise<void> {
  const entityKey = `${connectorId}/${entity}`;
  // A page write also takes its own key, in the same round trip: the write after it waits for
  // that key (runs-repo.ts recordPageWrite).
  if (writeKey === null) await executeStatement(db, LOCK[mode], [entityKey]);
  else await executeStatement(db, LOCK_WITH_WRITE[mode], [entityKey, `write/${writeKey}`]);
}

const LOCK = {
  exclusive: 'select pg_advisory_xact_lock(hashtextextended($1, 0))',
  shared: 'select pg_advisory_xact_lock_shared(hashtextextended($1, 0))',
} as const;
const LOCK_WITH_WRITE = {
  exclusive: `${LOCK.exclusive}, pg_advisory_xact_lock(hashtextextended($2, 0))`,
  shared: `${LOCK.shared}, pg_advisory_xact_lock(hashtextextended($2, 0))`,
} as const;

/** A page's upsert made ready: the statement's payload and the vocabulary words it adds; it holds no record. */
export interface PreparedUpsert {
  readonly payload: UpsertPayload;
  readonly rows: number;
  readonly fresh: readonly HashedEntry[];
}

/** Builds a page's upsert (words hashed, payload serialized) in one synchronous pass. */
export function prepareUpsert(connectorId: string, entity: string, records: readonly PageRecord[]): PreparedUpsert {
  const indexed = indexWords(connectorId, entity, records);
  return { payload: upsertPayload(records, indexed.words), rows: records.length, fresh: indexed.fresh };
}

/** Upserts a page: {@link prepareUpsert}, then {@link runUpsert}. */
export async function upsertPage(db: Db, connectorId: string, entity: string, records: readonly PageRecord[]): Promise<UpsertCounts> {
  return runUpsert(db, connectorId, entity, prepareUpsert(connectorId, entity, records));
}

/**
 * Runs a prepared upsert in one statement, with the vocabulary words it adds, and gets back only
 * its counts: each round trip and each returned row costs the worker CPU (bench/README.md,
 * session 29). The content hash (of the record's JSON) skips unchanged rows, so a re-sync of
 * unchanged data writes no record rows; a tombstoned record that reappears is revived with a new
 * version. The words' vocabulary is written in the same transaction: a fuzzy search never sees a
 * word it cannot expand to.
 */
export async function runUpsert(db: Db, connectorId: string, entity: string, upsert: PreparedUpsert): Promise<UpsertCounts> {
  if (upsert.rows === 0) return { inserted: 0, updated: 0, unchanged: 0 };
  // Hashing the JSON text here is much cheaper than hashing data::text in Postgres, which has to
  // re-serialize every jsonb value; a source that reorders keys only costs a redundant update.
  // Inserted rows are told by their creation time, this transaction's start (a partitioned table
  // returns no xmax): a row it updated was created by an earlier transaction, as no path upserts
  // a record twice in one.
  const { rows } = await sql<{ inserted: number; written: number }>`
    with vocab as (
      ${vocabInsert(connectorId, entity, upsert.fresh)}
    ), written as (
      insert into records as r (connector_id, entity, record_id, data, shadow, keys, text_lc, words, content_hash, version)
      select ${connectorId}::uuid, ${entity}, p.id, d.data, p.shadow, p.keys, p.text, case when p.wn is not null then w.words[p.w0 + 1 : p.w0 + p.wn] end, p.hash, nextval('record_version_seq')
        from rows from (jsonb_to_recordset(${upsert.payload.rows}::jsonb) as (id text, shadow jsonb, keys jsonb, text text, w0 int, wn int, hash text)) with ordinality as p(id, shadow, keys, text, w0, wn, hash, n)
        join jsonb_array_elements(${upsert.payload.data}::jsonb) with ordinality as d(data, n) using (n)
        cross join (select ${upsert.payload.words}::int4[] as words) w
      on conflict (connector_id, entity, record_id) do update
         set data = excluded.data,
             shadow = excluded.shadow,
             keys = excluded.keys,
             text_lc = excluded.text_lc,
             words = excluded.words,
             content_hash = excluded.content_hash,
             version = excluded.version,
             updated_at = now(),
             deleted_at = null
       where r.content_hash <> excluded.content_hash or r.deleted_at is not null
      returning (r.created_at = now()) as inserted
    )
    select (count(*) filter (where inserted))::int as inserted, count(*)::int as written from written`.execute(db);
  const { inserted, written } = rows[0] ?? { inserted: 0, written: 0 };
  return { inserted, updated: written - inserted, unchanged: upsert.rows - written, words: upsert.fresh };
}

/**
 * Gives a replay from the checkpoint the original's seen-set and fence, so partitions read before
 * the checkpoint are not tombstoned and records stored since the original started are not judged.
 * Returns false, and clears the replay's checkpoint, when the seen-set was already dropped, or
 * when the original has no fence (it started before migration 0004): the replay would fence at
 * its own start and judge records stored in between, in partitions it never reads again.
 */
export async function inheritSeen(db: Db, fromRunId: string, toRunId: string): Promise<boolean> {
  // Held until the caller commits: pruning the original between this and the copy below would
  // leave the replay its checkpoint with an empty seen-set, tombstoning what lies before it.
  await sql`select 1 from sync_runs where id = ${fromRunId}::bigint for share`.execute(db);
  const res = await sql`
    update sync_runs t set seen_fence = f.seen_fence
      from sync_runs f
     where f.id = ${fromRunId}::bigint and t.id = ${toRunId}::bigint and f.seen_dropped_at is null and f.seen_fence is not null`.execute(db);
  if (Number(res.numAffectedRows ?? 0n) === 0) {
    // Without the seen-set (or its fence) the checkpoint would tombstone what lies before it.
    await db.updateTable('sync_runs').set({ checkpoint: null }).where('id', '=', toRunId).execute();
    return false;
  }
  await sql`
    insert into sync_run_seen_batches (run_id, record_ids)
    select ${toRunId}::bigint, record_ids from sync_run_seen_batches where run_id = ${fromRunId}::bigint`.execute(db);
  return true;
}

/**
 * Drops the seen-sets of earlier failed or cancelled full runs of an entity once a full run of
 * it succeeded (those before `runId`): that run reconciled everything they could have, and a
 * replay of them starts over. A reset drops them all (`runId` null): it tombstoned every record,
 * so a replay resuming an old checkpoint would leave the partitions before it deleted.
 */
export async function dropSupersededSeen(db: Db, connectorId: string, entity: string, runId: string | null): Promise<number> {
  const { rows } = await sql<{ id: string }>`
    with dropped as (
      update sync_runs set seen_dropped_at = now()
       where connector_id = ${connectorId}::uuid and entity = ${entity} and mode = 'full'
         and (${runId}::bigint is null or id < ${runId}::bigint) and status in ('failed', 'cancelled') and seen_dropped_at is null
      returning id
    ), gone as (
      delete from sync_run_seen_batches where run_id in (select id from dropped)
    )
    select id from dropped`.execute(db);
  return rows.length;
}

/**
 * Tombstones live records a completed full run did not see; returns how many. The set
 * difference is computed once (a MATERIALIZED CTE, then an array the primary key is probed
 * with): on fresh, unanalyzed tables the planner turned both a correlated NOT EXISTS and a joined
 * EXCEPT into nested loops that re-ran per row (minutes for 50,000 records in CI).
 */
export async function tombstoneUnseen(db: Db, connectorId: string, entity: string, runId: string, fence: string | null): Promise<number> {
  // Records written after the fence (by runs between an original and its replay) were never in
  // the seen-set's reach: only the next full run can judge them.
  const judged = fence === null ? sql`true` : sql`version <= ${fence}::bigint`;
  const result = await sql`
    with gone as materialized (
      select record_id from records
       where connector_id = ${connectorId}::uuid and entity = ${entity} and deleted_at is null and ${judged}
      except
      select unnest(record_ids) from sync_run_seen_batches where run_id = ${runId}::bigint
    )
    update records r
       set deleted_at = now(), version = nextval('record_version_seq'), updated_at = now()
     where r.connector_id = ${connectorId}::uuid and r.entity = ${entity}
       and r.record_id = any(array(select record_id from gone))`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** Drops a finished run's seen-set. */
export async function clearSeen(db: Db, runId: string): Promise<void> {
  await db.deleteFrom('sync_run_seen_batches').where('run_id', '=', runId).execute();
}

/** Live (not tombstoned) records of one entity. */
export async function countLive(db: Db, connectorId: string, entity: string): Promise<number> {
  const row = await db
    .selectFrom('records')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('connector_id', '=', connectorId)
    .where('entity', '=', entity)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A change to ship to the search index, in version order. */
export interface RecordChange {
  readonly recordId: string;
  readonly version: string;
  readonly data: Record<string, unknown>;
  readonly deleted: boolean;
}

/** Changes with `version > after`, oldest first. */
export async function changesSince(db: Db, connectorId: string, entity: string, after: string, limit: number): Promise<RecordChange[]> {
  const rows = await db
    .selectFrom('records')
    .select(['record_id', 'version', 'data', 'deleted_at'])
    .where('connector_id', '=', connectorId)
    .where('entity', '=', entity)
    .where('version', '>', after)
    .orderBy('version')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ recordId: r.record_id, version: r.version, data: r.data, deleted: r.deleted_at !== null }));
}
