/** What a sync run needs (its dependencies) and what one execution of it carries along. */
import type { Kysely } from 'kysely';
import type { ConnectorDef, EntityDef } from '../connectors/catalog/types.js';
import type { Partition } from '../connectors/planner.js';
import type { ConnectorRuntime } from '../connectors/runtime-client.js';
import type { Logger } from '../logger.js';
import type { SearchBackend } from '../search/backend.js';
import type { BackgroundShipper } from '../search/indexer.js';
import type { Connector } from '../store/connectors-repo.js';
import type { Keyring } from '../store/crypto.js';
import type { DB } from '../store/db.js';
import type { SyncRunRow } from '../store/schema.js';
import type { CallGate, RetryPolicy } from './fetch-page.js';
import type { RunStop } from './run-stop.js';

/** What a run needs. */
export interface SyncDeps {
  readonly db: Kysely<DB>;
  readonly backend: SearchBackend;
  readonly runtime: ConnectorRuntime;
  readonly keyring: Keyring;
  readonly logger: Logger;
  /** Safety net against runaway paging. */
  readonly maxPagesPerRun?: number;
  /** Seconds subtracted from the saved incremental cursor. */
  readonly lookbackSec?: number;
  /** Runs of one connector at once (across all workers); more wait in the queue. Default 2. */
  readonly maxRunsPerConnector?: number;
  /** Most records one page-batch transaction holds (pages arriving during a write wait in it). Default 200. */
  readonly maxBatchRecords?: number;
  /** Partitions of one run read at once (p-limit). Default 2. */
  readonly partitionConcurrency?: number;
  /** Time slices a full read of one long list is split into, where the list allows it. Default 1 (off). */
  readonly timeSlices?: number;
  /** A running run without a heartbeat for this long belongs to a dead worker. Default 120. */
  readonly staleRunSec?: number;
  /** Waits and retries of one page fetch inside a run. Default DEFAULT_RETRY. */
  readonly retryPolicy?: RetryPolicy;
}

/** One execution of a run. */
export interface RunContext {
  readonly run: SyncRunRow;
  readonly connector: Connector;
  readonly connectorDef: ConnectorDef;
  readonly entity: EntityDef;
  readonly credentials: Record<string, unknown>;
  readonly log: Logger;
  /** Aborts on the worker's shutdown, or when an operator stopped the run while it waited. */
  readonly signal: AbortSignal;
  readonly stop: RunStop;
  /** Waits out the connector's rate-limit hold before each call, and sets it on a 429. */
  readonly gate: CallGate;
  maxCursor: number | null;
  /** The list's size as the runtime reports it (a one-partition read whose paging carries a total); progress shows it. */
  reportedTotal?: number;
  /** The saved cursor never passes this (unix seconds): when the pages behind the checkpoint began to be read. */
  readonly readFrom: number | null;
  /** Fixed for the whole run (and its resumes); see run-partitions.ts. */
  partitions: Partition[];
  readonly shipper: BackgroundShipper;
  /** The entity's lookup fields (their `keys` are written with each record). */
  readonly lookup: readonly string[];
}
