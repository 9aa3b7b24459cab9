/** Kysely table types; mirror migrations/*.sql. */
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T = unknown> = ColumnType<T, string, string>;
type BigintCount = ColumnType<string, number | bigint | undefined, number | bigint>;

export type RunTrigger = 'schedule' | 'manual' | 'replay';
export type RunMode = 'full' | 'incremental';
export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
export type EntityStatus = 'initializing' | 'ready' | 'updating' | 'error' | 'paused';

export interface OrganizationsTable {
  id: Generated<string>;
  name: string;
  created_at: Timestamp;
}

export interface ApiTokensTable {
  id: Generated<string>;
  organization_id: string;
  token_hash: Buffer;
  label: Generated<string>;
  is_admin: Generated<boolean>;
  created_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export interface ConnectorsTable {
  id: Generated<string>;
  organization_id: string;
  external_user_id: string;
  connector_type: string;
  name: string;
  secret_ciphertext: Buffer;
  secret_key_id: string;
  auth_method: string;
  replication_config: Json<Record<string, unknown>>;
  status: Generated<'active' | 'paused'>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RecordsTable {
  connector_id: string;
  entity: string;
  record_id: string;
  data: Json<Record<string, unknown>>;
  /** Sparse text shadow of the searchable fields (src/search/doc.ts). */
  shadow: Json<unknown> | null;
  /** The record's lookup fields (src/search/postgres/lookup-index.ts). */
  keys: Json<Record<string, unknown>> | null;
  /** Its searchable strings lower-cased, for the trigram pre-filter (src/search/postgres/text-index.ts). */
  text_lc: string | null;
  /** Hashes of its path-qualified words, for the word index (src/search/postgres/word-index.ts). */
  words: number[] | null;
  content_hash: string;
  version: ColumnType<string, string | number | bigint, string | number | bigint>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface EntityStateTable {
  connector_id: string;
  entity: string;
  status: Generated<EntityStatus>;
  sync_cursor: ColumnType<unknown, string | null | undefined, string | null>;
  record_count: BigintCount;
  last_synced_at: NullableTimestamp;
  next_run_at: NullableTimestamp;
  last_run_id: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  last_error: string | null;
  updated_at: Timestamp;
  /** Every live record has `text_lc` (searches may use the trigram index). */
  text_complete: Generated<boolean>;
}

/** The checkpoint a run resumes from. */
export interface RunCheckpoint {
  /** Index into the run's planned partitions: the lowest one not finished. */
  partition: number;
  /** Paging state for the next page of that partition; null = first page. */
  page: Record<string, unknown> | null;
  /** Partitions started and not finished, with their next page (null = first), when read in parallel. */
  open?: { partition: number; page: Record<string, unknown> | null }[];
  /** Index of the next partition not started yet (with `open`). */
  next?: number;
  /** Highest incremental-field value seen so far in this run. */
  maxCursor?: string | number | null;
  /** The run's partitions, fixed at its first start so a resumed run pages the same list. */
  partitions?: Record<string, string | number>[];
  /** When the pages this checkpoint covers began to be read (unix seconds): the start of the first execution, which a replay inherits. */
  readFrom?: number;
  /** Records the runtime says the run's list holds (its paging's total), when it reads one list: what progress is measured against. */
  reportedTotal?: number;
}

/** What a failed run recorded. */
export interface RunError {
  code: string;
  message: string;
  /** What failed underneath, for operators (AppError.detail). */
  detail?: string;
  upstreamStatus?: number;
}

export interface SyncRunsTable {
  id: Generated<string>;
  connector_id: string;
  entity: string;
  trigger: RunTrigger;
  mode: RunMode;
  status: Generated<RunStatus>;
  replay_of: string | null;
  job_id: string | null;
  attempts: Generated<number>;
  checkpoint: ColumnType<RunCheckpoint | null, string | null | undefined, string | null>;
  pages: Generated<number>;
  seen: BigintCount;
  inserted: BigintCount;
  updated: BigintCount;
  unchanged: BigintCount;
  deleted: BigintCount;
  error: ColumnType<RunError | null, string | null | undefined, string | null>;
  queued_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  heartbeat_at: NullableTimestamp;
  /** Last page write (migration 0010); null before the first. */
  progressed_at: NullableTimestamp;
  /** Last record version issued when the run first started reading; deletions judge only older ones. */
  seen_fence: ColumnType<string | null, string | null | undefined, string | null>;
  /** When a later successful full run made this run's seen-set useless and it was dropped. */
  seen_dropped_at: NullableTimestamp;
}

export interface SyncRunSeenBatchesTable {
  run_id: string;
  record_ids: string[];
}

/** A connector's upstream asked every call to wait until `until` (migration 0011). */
export interface ConnectorRateLimitsTable {
  connector_id: string;
  until: Timestamp;
}

export interface SearchIndexesTable {
  name: string;
  connector_type: string;
  entity: string;
  created_at: Timestamp;
  /** The engine's own id of the index behind the name when its watermarks were set (migration 0007). */
  engine_uuid: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SearchAliasesTable {
  connector_type: string;
  entity: string;
  index_name: string;
}

export interface SearchWatermarksTable {
  index_name: string;
  connector_id: string;
  entity: string;
  watermark: ColumnType<string, string | number | bigint | undefined, string | number | bigint>;
}

/** The database as kysely sees it. */
export interface DB {
  organizations: OrganizationsTable;
  api_tokens: ApiTokensTable;
  connectors: ConnectorsTable;
  records: RecordsTable;
  entity_state: EntityStateTable;
  sync_runs: SyncRunsTable;
  sync_run_seen_batches: SyncRunSeenBatchesTable;
  connector_rate_limits: ConnectorRateLimitsTable;
  search_indexes: SearchIndexesTable;
  search_aliases: SearchAliasesTable;
  search_watermarks: SearchWatermarksTable;
}

export type ConnectorRow = Selectable<ConnectorsTable>;
export type SyncRunRow = Selectable<SyncRunsTable>;
export type EntityStateRow = Selectable<EntityStateTable>;
export type NewSyncRun = Insertable<SyncRunsTable>;
