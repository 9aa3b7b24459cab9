/** The seam between the search service and an index engine (Postgres or OpenSearch). */
import type { Db } from '../store/db.js';
import type { SearchQuery, SearchTarget } from './dsl/ast.js';

/** One change to apply to an index, with the record version that orders it. */
export interface IndexChange {
  readonly recordId: string;
  readonly version: string;
  /** Searchable projection of the record; null for a tombstone. */
  readonly doc: Record<string, unknown> | null;
}

/** A change the index refused for its content (the rest of its batch was applied). */
export interface RejectedChange {
  readonly recordId: string;
  readonly version: string;
  readonly reason: string;
}

/** A hit as a backend returns it: the values it sorted by travel into the next cursor. */
export interface BackendHit {
  readonly id: string;
  readonly score: number;
  readonly doc: Record<string, unknown>;
  readonly sortValues: readonly unknown[];
  /** The document's JSON text, when the backend read it as text (`doc` is then parsed from it on demand). */
  readonly json?: string;
}

/** A search to run: the validated query, the tenant, and the keyset position to continue after. */
export interface BackendSearch {
  readonly target: SearchTarget;
  readonly connectorId: string;
  readonly query: SearchQuery;
  readonly after: readonly unknown[] | null;
  /** Hits to fetch: `limit + 1`, so the caller knows whether another page exists. */
  readonly size: number;
}

/** An index engine. `db` is the caller's connection or transaction, for engines that live in Postgres. */
export interface SearchBackend {
  readonly kind: 'postgres' | 'opensearch';
  /**
   * False when the backend searches the store in place (Postgres: the records table is the
   * index), so there is nothing to ship; true when changes must be shipped to it (OpenSearch).
   */
  readonly shipsChanges: boolean;
  /** Creates the live index of a (connector type, entity) if missing; returns its name. */
  ensureIndex(db: Db, target: SearchTarget): Promise<string>;
  /**
   * Applies changes in version order; an older version never overwrites a newer one. Returns the
   * few changes the index refused for their own content (a document it cannot map): the caller
   * reports them and moves on, so one bad record cannot stop its entity's shipping for good.
   */
  apply(db: Db, indexName: string, connectorId: string, changes: readonly IndexChange[]): Promise<readonly RejectedChange[]>;
  search(db: Db, req: BackendSearch): Promise<BackendHit[]>;
  /** Throws when the index engine cannot be reached (for /readyz). */
  ping(db: Db): Promise<void>;
  /**
   * The engine's own id of the index behind a name (OpenSearch: its uuid), which changes when
   * the name comes to stand for a new index; null for engines without one (Postgres).
   */
  indexIdentity(index: string): Promise<string | null>;
  /** Names of the live index (alias target) of a (connector type, entity), or null. */
  liveIndex(db: Db, target: SearchTarget): Promise<string | null>;
}
