/**
 * Bulk requests of the indexer (DESIGN §5): every change carries its record version with
 * `version_type: external`, so OpenSearch itself refuses to let an older change overwrite a newer
 * one, whatever the order or repetition of deliveries. Upserts and deletes go in separate
 * requests. The NDJSON is written here, not by the client's serializer, because versions are
 * Postgres bigints: a JavaScript number would round them beyond 2^53.
 */
import { AppError } from '../../errors.js';
import type { IndexChange } from '../backend.js';
import type { SearchTarget } from '../dsl/ast.js';
import { indexDocument } from './derive.js';
import { documentId } from './names.js';

/** One bulk operation: its action line and, for `index`, its source line. */
export interface BulkOp {
  readonly recordId: string;
  readonly lines: readonly string[];
}

const MAX_LONG = 2n ** 63n - 1n;

function checkVersion(version: string): string {
  if (!/^\d{1,19}$/.test(version) || BigInt(version) > MAX_LONG) {
    throw new AppError('internal', `record version "${version}" is not a non-negative 64-bit integer`);
  }
  return version;
}

/** Keeps the newest change of each record: a batch may hold several versions of one record. */
export function latestChanges(changes: readonly IndexChange[]): IndexChange[] {
  const newest = new Map<string, IndexChange>();
  for (const c of changes) {
    const seen = newest.get(c.recordId);
    if (seen === undefined || BigInt(checkVersion(c.version)) > BigInt(seen.version)) newest.set(c.recordId, c);
  }
  return [...newest.values()];
}

function actionLine(op: 'index' | 'delete', index: string, connectorId: string, c: IndexChange): string {
  const meta = `"_index":${JSON.stringify(index)},"_id":${JSON.stringify(documentId(connectorId, c.recordId))},"routing":${JSON.stringify(connectorId)}`;
  return `{"${op}":{${meta},"version":${checkVersion(c.version)},"version_type":"external"}}`;
}

/** `index` operations (projection + derived fields), routed by connector id. */
export function upsertOps(target: SearchTarget, index: string, connectorId: string, changes: readonly IndexChange[]): BulkOp[] {
  return changes.flatMap((c) => {
    if (c.doc === null) return [];
    const source = indexDocument(target, connectorId, c.recordId, c.version, c.doc);
    return [{ recordId: c.recordId, lines: [actionLine('index', index, connectorId, c), JSON.stringify(source)] }];
  });
}

/** `delete` operations for tombstones, routed by connector id. */
export function deleteOps(index: string, connectorId: string, changes: readonly IndexChange[]): BulkOp[] {
  return changes.flatMap((c) => (c.doc === null ? [{ recordId: c.recordId, lines: [actionLine('delete', index, connectorId, c)] }] : []));
}

/**
 * Splits operations into bulk requests of at most `maxBytes` of NDJSON each (an operation larger
 * than that goes alone). Clusters cap a request body (`http.max_content_length`: 100 MB by
 * default, 10 MiB on many managed instances); a batch of long documents must not exceed it.
 */
export function chunkOps(ops: readonly BulkOp[], maxBytes: number): BulkOp[][] {
  const chunks: BulkOp[][] = [];
  let current: BulkOp[] = [];
  let bytes = 0;
  for (const op of ops) {
    const size = op.lines.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
    if (current.length > 0 && bytes + size > maxBytes) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(op);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** The request body: one JSON document per line, newline-terminated. */
export function ndjson(ops: readonly BulkOp[]): string {
  return ops.map((op) => op.lines.map((l) => `${l}\n`).join('')).join('');
}

/** What one bulk response item looks like (the fields we read). */
export interface BulkItem {
  readonly status: number;
  readonly result?: string;
  readonly error?: { readonly type?: string; readonly reason?: string } | string;
}

/** Outcome of a bulk response: positions to retry (429) and the first hard failure. */
export interface BulkVerdict {
  readonly retry: number[];
  readonly failure: AppError | null;
}

/**
 * 2xx: done. 409: an equal or newer version is already there — the change lost to a newer one,
 * which is the point of external versioning. 404 on delete: nothing to delete. 429: retry that
 * item. Anything else fails the batch: retryable for 5xx (the cluster may recover), not for
 * other 4xx (e.g. a mapping error: retrying the same document fails the same way).
 */
export function judgeItems(items: readonly BulkItem[], ops: readonly BulkOp[]): BulkVerdict {
  const retry: number[] = [];
  for (const [i, item] of items.entries()) {
    const { status } = item;
    if ((status >= 200 && status < 300) || status === 409 || (status === 404 && item.result === 'not_found')) continue;
    if (status === 429) {
      retry.push(i);
      continue;
    }
    const reason = typeof item.error === 'string' ? item.error : `${item.error?.type ?? 'error'}: ${item.error?.reason ?? ''}`;
    const message = `OpenSearch refused record ${JSON.stringify(ops[i]?.recordId)} (status ${status}): ${reason}`;
    return { retry, failure: new AppError(status >= 500 ? 'unavailable' : 'internal', message, { retryable: status >= 500, upstreamStatus: status }) };
  }
  return { retry, failure: null };
}
