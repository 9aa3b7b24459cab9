/** The runs-list query of the admin API (and the CLI's `runs`, which builds the same bag from flags). */
import { AppError } from '../errors.js';
import { listRuns, type RunFilter, type RunListRow } from '../store/admin-queries.js';
import type { Db } from '../store/db.js';
import type { RunStatus } from '../store/schema.js';
import { decodeRunsCursor, encodeRunsCursor, objectOf, onlyKeys, optEnumList, optInstant, optInt, optKey, optString, optUuid } from './params.js';

const STATUSES: readonly RunStatus[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];
const LIST_KEYS = ['connector_id', 'entity', 'status', 'since', 'until', 'limit', 'cursor'];

/** Parses the runs-list query; every problem names its parameter. */
export function parseRunsQuery(query: unknown): { filter: RunFilter; limit: number; beforeId: string | undefined } {
  const q = objectOf(query, 'query');
  onlyKeys(q, LIST_KEYS);
  const filter: RunFilter = {
    connectorId: optUuid(q, 'connector_id'),
    entity: optKey(q, 'entity'),
    statuses: optEnumList(q, 'status', STATUSES),
    since: optInstant(q, 'since'),
    until: optInstant(q, 'until'),
  };
  if (filter.since !== undefined && filter.until !== undefined && filter.since >= filter.until) {
    throw new AppError('invalid_request', 'since must be before until', { path: 'since' });
  }
  return { filter, limit: optInt(q, 'limit', 1, 500) ?? 50, beforeId: decodeRunsCursor(optString(q, 'cursor', 128)) };
}

/** One keyset page of runs, newest first, for the admin API and the CLI alike. */
export async function runsPage(db: Db, query: unknown): Promise<{ runs: RunListRow[]; nextCursor: string | null }> {
  const { filter, limit, beforeId } = parseRunsQuery(query);
  const rows = await listRuns(db, filter, { beforeId, limit: limit + 1 });
  const runs = rows.slice(0, limit);
  const last = runs[runs.length - 1];
  return { runs, nextCursor: rows.length > limit && last !== undefined ? encodeRunsCursor(last.id) : null };
}
