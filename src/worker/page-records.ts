/** A runtime page's records as the page writer takes them (id, parsed record, and the bytes the runtime sent for it). */
import type { EntityDef } from '../connectors/catalog/types.js';
import { recordSpans, withDerivedFields } from '../connectors/planner.js';
import type { RuntimePage } from '../connectors/runtime-client.js';
import type { Logger } from '../logger.js';
import { contentHash, type PageRecord } from '../store/records-repo.js';

/**
 * A record with the bytes the runtime sent for it and their content hash, made in one object that
 * prepareRecords passes through: copying each record into a new object with its hash went through
 * V8's slow property paths, about 1 µs per record in the worker's profile (bench/README.md, session 36).
 */
const sourced = (id: string, data: Record<string, unknown>, source: Uint8Array): PageRecord => ({ id, data, source, hash: contentHash(source) });

/**
 * A page's records as the writer takes them. A record the runtime sent as bytes the page can be
 * cut at, with nothing derived into it, carries those bytes as its JSON (`source`), hashed.
 */
export function toPageRecords(entity: EntityDef, page: RuntimePage | null, raw: readonly Record<string, unknown>[], log: Logger): PageRecord[] {
  const body = page?.body;
  const spans = page === null || body === undefined ? null : recordSpans(entity, page.data, body);
  const out: PageRecord[] = [];
  raw.forEach((record, i) => {
    const data = withDerivedFields(entity, record);
    const id = data[entity.idField];
    const span = data === record ? spans?.[i] : undefined;
    if (typeof id === 'string' || typeof id === 'number') out.push(span === undefined || body === undefined ? { id: String(id), data } : sourced(String(id), data, body.subarray(span.start, span.end)));
    else log.warn({ idField: entity.idField }, 'record without an id skipped');
  });
  return out;
}
