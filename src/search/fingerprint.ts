/**
 * `queryFingerprint`: a stable hash binding a cursor to one search. It covers the connector id,
 * the entity, and the filter, sort and fields of the parsed query (NOT limit, NOT cursor: paging
 * with another page size stays valid). Input is canonical JSON (object keys sorted), so the hash
 * does not depend on key order; a format version is hashed in for future changes.
 */
import { createHash } from 'node:crypto';
import type { SearchQuery } from './dsl/ast.js';

const FINGERPRINT_VERSION = 1;

/** JSON with object keys sorted recursively (undefined members dropped, as JSON.stringify does). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** sha256 (base64url, 43 chars) of connector, entity, filter, sort and fields. */
export function queryFingerprint(connectorId: string, entity: string, query: SearchQuery): string {
  const material = canonicalJson({
    v: FINGERPRINT_VERSION,
    connector: connectorId,
    entity,
    filter: query.filter,
    sort: query.sort,
    fields: query.fields,
  });
  return createHash('sha256').update(material, 'utf8').digest('base64url');
}
