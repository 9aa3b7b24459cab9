/**
 * Names shared by the OpenSearch mapping, the derived document and the query compiler. Keeping
 * them in one place is what makes the golden tests of request bodies meaningful: a field the
 * compiler queries is, by construction, a field the mapping declares and the indexer fills.
 *
 * Every indexed document is the record's searchable projection (kept verbatim as `_source`) plus
 * one reserved object, `sx`, that holds what queries read (excluded from `_source`):
 *
 *   sx.c                 connector id (keyword; the tenant filter, also the routing value)
 *   sx.id                record id (keyword; the final sort key)
 *   sx.v                 record version (long; informative, OpenSearch keeps `_version` too)
 *   sx.f.<field>.*       one flat SLOT per string/int/number/boolean field (see SLOT_FIELDS)
 *   sx.x[]               nested ENTRIES: one per path of object and array fields (`k` = path)
 *   sx.x.e[].x[]         the object elements of an array entry, each with its own entries
 */
import { createHash } from 'node:crypto';
import { AppError } from '../../errors.js';
import type { SearchTarget } from '../dsl/ast.js';

/** The reserved root of derived data; no searchable field may be called so. */
export const ROOT = 'sx';

/**
 * Levels of `any` the index supports (`any` inside `any` inside ...). Each level is a nested
 * mapping; deeper elements are not indexed as elements and a deeper `any` is `invalid_query`.
 */
export const ANY_DEPTH = 4;

/**
 * Strings, lower-cased strings, words and string sort keys keep their first STRING_CAP code
 * points: Lucene refuses terms over 32766 bytes (4 bytes per code point at worst). Query
 * strings are at most 1024 code points, so eq/in/range/fuzzy/keyword stay exact (see
 * docs/opensearch.md); only `like` and the order of two strings sharing their first 8000 code
 * points can differ from the reference.
 */
export const STRING_CAP = 8000;

/**
 * Format of the derived documents an index holds, kept in its mapping as `_meta.sx_format`
 * (indexes made before formats were recorded hold format 1). 1: words as they are. 2: every
 * word behind its connector's tag (wordTag), so that `fuzzy` and `prefix` expand only the
 * searching connector's words, not those of every connector sharing the index
 * (bench/README.md, session 40).
 */
export const DOC_FORMAT = 2;

/** Code points of a word tag: fuzzy and prefix queries keep them fixed (`prefix_length`). */
export const WORD_TAG_LENGTH = 6;

/**
 * The tag a connector's words carry in a document of `format`: 6 base64url characters of the
 * SHA-1 of its id (empty in format 1). Two connectors may share a tag; the tenant filter on
 * `sx.c` still separates them, so a tag only narrows what a query expands, never what matches.
 */
export function wordTag(format: number, connectorId: string): string {
  if (format < 2) return '';
  return createHash('sha1').update(connectorId, 'utf8').digest('base64url').slice(0, WORD_TAG_LENGTH);
}

/** Flat slot subfields by catalog type (what the mapping declares and the indexer writes). */
export const SLOT_FIELDS = {
  string: ['p', 's', 'l', 'w', 't', 'o'],
  int: ['p', 'n', 'o'],
  number: ['p', 'n', 'o'],
  boolean: ['p', 'b', 'o'],
} as const;

export type FlatType = keyof typeof SLOT_FIELDS;

/** Whether a catalog type gets a flat slot (others live in the nested entries `sx.x`). */
export function isFlatType(type: string): type is FlatType {
  return Object.hasOwn(SLOT_FIELDS, type);
}

/**
 * The key of a field under `sx.f`. Catalog names are `[A-Za-z0-9_]`, kept as they are; anything
 * else (a dot would make OpenSearch nest objects) is percent-encoded, dots and `*` included.
 */
export function slotKey(field: string): string {
  if (/^[A-Za-z0-9_]+$/.test(field)) return field;
  return encodeURIComponent(field).replace(/\./g, '%2E').replace(/\*/g, '%2A');
}

/** The flat slot of a field, e.g. `sx.f.email` (its subfields are `sx.f.email.s`, ...). */
export function slotPrefix(field: string): string {
  return `${ROOT}.f.${slotKey(field)}`;
}

/** The `k` of an entry: its path segments as JSON (unambiguous whatever the keys contain). */
export function entryKey(segments: readonly string[]): string {
  return JSON.stringify(segments);
}

/** Nested path of the entries of a scope: `sx.x` (record) or `<element path>.x`. */
export function entriesPath(scope: string): string {
  return `${scope}.x`;
}

/** Alias of a (connector type, entity): what searches and `liveIndex` resolve. */
export function aliasName(target: SearchTarget, prefix = ''): string {
  return checkIndexName(`${prefix}${target.connectorType}__${target.entity}`);
}

/** Versioned index behind the alias: `<type>__<entity>__<n>`. */
export function versionedIndexName(target: SearchTarget, generation: number, prefix = ''): string {
  return checkIndexName(`${aliasName(target, prefix)}__${generation}`);
}

/** The generation of a versioned index name, or null when it is not one of ours. */
export function generationOf(alias: string, index: string): number | null {
  const m = index.startsWith(`${alias}__`) ? /^(\d+)$/.exec(index.slice(alias.length + 2)) : null;
  return m === null ? null : Number(m[1]);
}

/** OpenSearch index names: lower case, no `\/*?"<>| ,#:`, at most 255 bytes. */
function checkIndexName(name: string): string {
  if (!/^[a-z0-9][a-z0-9_.-]{0,200}$/.test(name)) throw new AppError('internal', `invalid OpenSearch index name "${name}"`);
  return name;
}

/**
 * Document `_id`: unique across the connectors sharing the index. OpenSearch limits `_id` to 512
 * bytes, so an over-long record id is replaced by its SHA-256 (the real id stays in `sx.id`).
 */
export function documentId(connectorId: string, recordId: string): string {
  const id = `${connectorId}:${recordId}`;
  if (Buffer.byteLength(id, 'utf8') <= 512) return id;
  return `${connectorId}:sha256:${createHash('sha256').update(recordId, 'utf8').digest('hex')}`;
}

/** Refuses a target whose searchable fields would collide with the reserved root. */
export function checkTarget(target: SearchTarget): void {
  if (Object.hasOwn(target.searchable, ROOT)) {
    throw new AppError('internal', `searchable field "${ROOT}" of ${target.entity} collides with the OpenSearch backend's reserved field`);
  }
}
