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
import { DOC_FORMAT, documentId, wordTag } from './names.js';

/** One bulk operation: its action line and, for `index`, its source line. */
export interface BulkOp {
  readonly recordId: string;
  readonly version: string;
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

/** `index` operations (projection + derived fields in the index's document `format`), routed by connector id. */
export function upsertOps(target: SearchTarget, index: string, connectorId: string, changes: readonly IndexChange[], format = DOC_FORMAT): BulkOp[] {
  const tag = wordTag(format, connectorId);
  return changes.flatMap((c) => {
    if (c.doc === null) return [];
    const source = indexDocument(target, connectorId, c.recordId, c.version, c.doc, tag);
    return [{ recordId: c.recordId, version: c.version, lines: [actionLine('index', index, connectorId, c), JSON.stringify(source)] }];
  });
}

/** `delete` operations for tombstones, routed by connector id. */
export function deleteOps(index: string, connectorId: string, changes: readonly IndexChange[]): BulkOp[] {
  return changes.flatMap((c) => (c.doc === null ? [{ recordId: c.recordId, version: c.version, lines: [actionLine('delete', index, connectorId, c)] }] : []));
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

/** Outcome of a bulk response: positions to retry (429), documents refused (400), and the first hard failure. */
export interface BulkVerdict {
  readonly retry: number[];
  readonly rejected: { readonly recordId: string; readonly version: string; readonly reason: string }[];
  readonly failure: AppError | null;
}

/** Refusals of at most this many documents, or of at most half the request, are the documents' own fault. */
const FEW_REJECTED = 10;

/**
 * 400s that a document earns by its own content: a value the mapping cannot parse, a term over
 * Lucene's 32766 bytes, more nested objects than the index allows. Any other 400 (a closed
 * index, a strict mapping the worker has not extended yet) is the index's, and fails the batch.
 */
function documentFault(item: BulkItem): boolean {
  if (typeof item.error !== 'object' || item.error === undefined) return false;
  const { type = '', reason = '' } = item.error;
  if (type === 'mapper_parsing_exception' || type === 'document_parsing_exception') return true;
  return type === 'illegal_argument_exception' && /immense term|nested (documents|objects)|limit of/i.test(reason);
}

const reasonOf = (item: BulkItem): string => (typeof item.error === 'string' ? item.error : `${item.error?.type ?? 'error'}: ${item.error?.reason ?? ''}`);

/**
 * 2xx: done. 409: an equal or newer version is already there — the change lost to a newer one,
 * which is the point of external versioning. 404 on delete: nothing to delete. 429: retry that
 * item. A 400 the document earns by its own content ({@link documentFault}): retrying fails the
 * same way, so it is reported as rejected and the rest proceeds, unless most of a large request
 * was refused, which points at the index rather than the documents. Anything else fails the
 * batch: retryable for 5xx, not for other 4xx.
 */
export function judgeItems(items: readonly BulkItem[], ops: readonly BulkOp[]): BulkVerdict {
  const retry: number[] = [];
  const rejected: BulkVerdict['rejected'] = [];
  for (const [i, item] of items.entries()) {
    const { status } = item;
    if ((status >= 200 && status < 300) || status === 409 || (status === 404 && item.result === 'not_found')) continue;
    if (status === 429) {
      retry.push(i);
      continue;
    }
    const op = ops[i];
    if (status === 400 && op !== undefined && documentFault(item)) {
      rejected.push({ recordId: op.recordId, version: op.version, reason: reasonOf(item) });
      continue;
    }
    const message = `OpenSearch refused record ${JSON.stringify(op?.recordId)} (status ${status}): ${reasonOf(item)}`;
    return { retry, rejected, failure: new AppError(status >= 500 ? 'unavailable' : 'internal', message, { retryable: status >= 500, upstreamStatus: status }) };
  }
  if (rejected.length > FEW_REJECTED && rejected.length * 2 > items.length) {
    const first = rejected[0] as BulkVerdict['rejected'][number];
    const message = `OpenSearch refused ${rejected.length} of ${items.length} documents, e.g. record ${JSON.stringify(first.recordId)}: ${first.reason}`;
    return { retry, rejected: [], failure: new AppError('internal', message, { upstreamStatus: 400 }) };
  }
  return { retry, rejected, failure: null };
}
