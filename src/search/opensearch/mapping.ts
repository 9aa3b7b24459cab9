/**
 * Index mappings and settings generated from a SearchTarget (names.ts, derive.ts explain the
 * document shape). Design:
 *
 * - The record's own fields are NOT indexed (`dynamic: false` at the root): third-party data
 *   with a value of the wrong JSON type can therefore never be rejected by a typed mapping or
 *   silently dropped by `ignore_malformed`. They are kept verbatim as `_source` (the projected
 *   doc); the derived `sx` object is indexed and excluded from `_source`.
 * - Strings are `keyword` (no analyzer, no normalizer): term, range and sort compare UTF-8 bytes,
 *   which is the reference's code-point order. Words and lower-cased copies come from TypeScript.
 * - Every number is a `double`, `int` fields included: the values the reference compares are
 *   JavaScript doubles (Postgres jsonb → JSON.parse already rounds integers beyond 2^53), and a
 *   `long` would truncate 1.5 to 1 (coercion) or reject values beyond 2^63.
 * - Object and array fields, and all their sub-paths, are `nested` entries keyed by path, so one
 *   shared mapping serves every key any connector's data has (no mapping explosion in a shared
 *   index) and `any` can demand ONE element (block join) for the whole inner filter.
 * - `sx` is `dynamic: strict`: a derived field the mapping does not declare is a bug, not data.
 * - `_meta.sx_format` says which document format (names.ts `DOC_FORMAT`) the index holds.
 */
import { SEARCH_LIMITS, type SearchTarget } from '../dsl/ast.js';
import { ANY_DEPTH, checkTarget, DOC_FORMAT, isFlatType, ROOT, SLOT_FIELDS, slotKey } from './names.js';

type Mapping = Record<string, unknown>;

/** Queried through the inverted index only: no doc values needed. */
const KEYWORD = { type: 'keyword', doc_values: false };
const BOOLEAN = { type: 'boolean', doc_values: false };
const DOUBLE = { type: 'double', doc_values: false };
/** Sort keys are only ever sorted on: doc values, no inverted index. */
const SORT_KEY = { type: 'keyword', index: false };
const TEXT_GROUPS = { type: 'nested', properties: { w: KEYWORD } };

const SUBFIELD: Record<string, Mapping> = { p: BOOLEAN, a: BOOLEAN, n: DOUBLE, s: KEYWORD, b: BOOLEAN, l: KEYWORD, w: KEYWORD, t: TEXT_GROUPS, o: SORT_KEY };

function subfields(names: readonly string[]): Mapping {
  return Object.fromEntries(names.map((n) => [n, SUBFIELD[n]]));
}

/** Entries of a scope at `level` (0 = the record): `e` (elements) only below ANY_DEPTH, `o` only at 0. */
export function entryMapping(level: number): Mapping {
  const slot = level === 0 ? ['p', 'a', 'n', 's', 'b', 'l', 'w', 't', 'o'] : ['p', 'a', 'n', 's', 'b', 'l', 'w', 't'];
  const properties: Mapping = { k: KEYWORD, ...subfields(slot) };
  if (level < ANY_DEPTH) {
    properties.e = { type: 'nested', properties: { i: { type: 'integer', doc_values: false }, x: entryMapping(level + 1) } };
  }
  return { type: 'nested', properties };
}

/** The `mappings` of the index of a target. */
export function indexMappings(target: SearchTarget): Mapping {
  checkTarget(target);
  const flat: Mapping = {};
  for (const [field, type] of Object.entries(target.searchable)) {
    if (isFlatType(type)) flat[slotKey(field)] = { properties: subfields(SLOT_FIELDS[type]) };
  }
  return {
    dynamic: false,
    _meta: { sx_format: DOC_FORMAT },
    _source: { excludes: [ROOT] },
    _routing: { required: true },
    properties: {
      [ROOT]: {
        dynamic: 'strict',
        properties: {
          c: { type: 'keyword' },
          id: { type: 'keyword' },
          v: { type: 'long', index: false },
          f: { properties: flat },
          x: entryMapping(0),
        },
      },
    },
  };
}

/** Shards and replicas of new indexes; one index holds every connector of a (type, entity). */
export interface IndexLayout {
  readonly shards: number;
  readonly replicas: number;
}

export const DEFAULT_LAYOUT: IndexLayout = { shards: 1, replicas: 1 };

/** Counts nested mappings and leaf fields, to size the per-index mapping limits. */
function countMapping(m: Mapping): { nested: number; fields: number } {
  let nested = m.type === 'nested' ? 1 : 0;
  let fields = 1;
  const props = (m.properties ?? {}) as Record<string, Mapping>;
  for (const child of Object.values(props)) {
    const c = countMapping(child);
    nested += c.nested;
    fields += c.fields;
  }
  return { nested, fields };
}

/**
 * Index settings. Routing by connector id keeps a tenant's documents on one shard (searches hit
 * one shard); `refresh_interval` 1s makes pages searchable soon after they are shipped;
 * `max_result_window` admits `limit + 1` hits; the nested limits follow the generated mapping
 * (a text field with several strings or an array of objects holds nested documents).
 */
export function indexSettings(target: SearchTarget, layout: IndexLayout = DEFAULT_LAYOUT): Mapping {
  const { nested, fields } = countMapping(indexMappings(target));
  return {
    index: {
      number_of_shards: layout.shards,
      number_of_replicas: layout.replicas,
      refresh_interval: '1s',
      max_result_window: SEARCH_LIMITS.maxLimit + 1,
      mapping: {
        nested_fields: { limit: Math.max(50, nested + 10) },
        nested_objects: { limit: 100_000 },
        total_fields: { limit: Math.max(1000, fields + 100) },
      },
    },
  };
}
