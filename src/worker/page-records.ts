/** A runtime page's records as the page writer takes them (id, parsed record, and the bytes the runtime sent for it). */
import type { EntityDef } from '../connectors/catalog/types.js';
import { recordSpans, withDerivedFields } from '../connectors/planner.js';
import type { RuntimePage } from '../connectors/runtime-client.js';
import type { Logger } from '../logger.js';
import type { PageRecord } from '../store/records-repo.js';

/**
 * A page's records as the writer takes them. A record the runtime sent as bytes the page can be
 * cut at, with nothing derived into it, carries those bytes as its JSON (`source`).
 */
export function toPageRecords(entity: EntityDef, page: RuntimePage | null, raw: readonly Record<string, unknown>[], log: Logger): PageRecord[] {
  const body = page?.body;
  const spans = page === null || body === undefined ? null : recordSpans(entity, page.data, body);
  const out: PageRecord[] = [];
  raw.forEach((record, i) => {
    const data = withDerivedFields(entity, record);
    const id = data[entity.idField];
    const span = data === record ? spans?.[i] : undefined;
    if (typeof id === 'string' || typeof id === 'number') out.push(span === undefined || body === undefined ? { id: String(id), data } : { id: String(id), data, source: body.subarray(span.start, span.end) });
    else log.warn({ idField: entity.idField }, 'record without an id skipped');
  });
  return out;
}
