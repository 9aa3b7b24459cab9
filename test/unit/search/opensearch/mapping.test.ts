import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../src/errors.js';
import type { SearchTarget } from '../../../../src/search/dsl/ast.js';
import { entryMapping, indexMappings, indexSettings } from '../../../../src/search/opensearch/mapping.js';
import { ANY_DEPTH, aliasName, documentId, slotKey, versionedIndexName } from '../../../../src/search/opensearch/names.js';
import { indexDocument } from '../../../../src/search/opensearch/derive.js';
import { dataset } from '../../../conformance/arbitraries.js';
import { customers } from '../fixtures.js';

/** One field of every catalog type. */
const target: SearchTarget = {
  connectorType: 'payments',
  entity: 'customers',
  idField: 'id',
  searchable: { email: 'string', balance: 'int', rate: 'number', livemode: 'boolean', metadata: 'object', cards: 'array' },
};

const KEYWORD = { type: 'keyword', doc_values: false };
const BOOLEAN = { type: 'boolean', doc_values: false };
const DOUBLE = { type: 'double', doc_values: false };
const SORT_KEY = { type: 'keyword', index: false };
const TEXT_GROUPS = { type: 'nested', properties: { w: KEYWORD } };

describe('indexMappings', () => {
  const m = indexMappings(target) as any;

  it('keeps the projection as _source, unindexed; derived fields under sx, excluded from _source; routing required', () => {
    expect(m.dynamic).toBe(false);
    expect(m._source).toEqual({ excludes: ['sx'] });
    expect(m._routing).toEqual({ required: true });
    expect(Object.keys(m.properties)).toEqual(['sx']);
    expect(m.properties.sx.dynamic).toBe('strict');
    expect(m.properties.sx.properties.c).toEqual({ type: 'keyword' });
    expect(m.properties.sx.properties.id).toEqual({ type: 'keyword' });
    expect(m.properties.sx.properties.v).toEqual({ type: 'long', index: false });
  });

  it('gives string/int/number/boolean fields a flat slot with the subfields their operators need', () => {
    expect(m.properties.sx.properties.f).toEqual({
      properties: {
        email: { properties: { p: BOOLEAN, s: KEYWORD, l: KEYWORD, w: KEYWORD, t: TEXT_GROUPS, o: SORT_KEY } },
        balance: { properties: { p: BOOLEAN, n: DOUBLE, o: SORT_KEY } },
        rate: { properties: { p: BOOLEAN, n: DOUBLE, o: SORT_KEY } },
        livemode: { properties: { p: BOOLEAN, b: BOOLEAN, o: SORT_KEY } },
      },
    });
  });

  it('maps object and array fields (and every sub-path) as nested entries keyed by path, elements nested for any', () => {
    const x = m.properties.sx.properties.x;
    expect(x.type).toBe('nested');
    expect(x.properties).toEqual({
      k: KEYWORD, p: BOOLEAN, a: BOOLEAN, n: DOUBLE, s: KEYWORD, b: BOOLEAN, l: KEYWORD, w: KEYWORD, t: TEXT_GROUPS, o: SORT_KEY,
      e: { type: 'nested', properties: { i: { type: 'integer', doc_values: false }, x: entryMapping(1) } },
    });
    // Element entries are never sorted on: no sort key below the record.
    expect(entryMapping(1).properties).not.toHaveProperty('o');
  });

  it(`nests elements ${ANY_DEPTH} levels deep and stops there`, () => {
    let level = m.properties.sx.properties.x;
    for (let depth = 0; depth < ANY_DEPTH; depth += 1) level = level.properties.e.properties.x;
    expect(level.type).toBe('nested');
    expect(level.properties).not.toHaveProperty('e');
  });

  it('refuses a target with a field named like the reserved root', () => {
    expect(() => indexMappings({ ...target, searchable: { sx: 'string' } })).toThrow(AppError);
  });

  it('encodes field names OpenSearch would read as object paths', () => {
    expect(slotKey('created_at')).toBe('created_at');
    expect(slotKey('address.city')).toBe('address%2Ecity');
    expect(slotKey('a*b c')).toBe('a%2Ab%20c');
    const dotted = indexMappings({ ...target, searchable: { 'address.city': 'string' } }) as any;
    expect(Object.keys(dotted.properties.sx.properties.f.properties)).toEqual(['address%2Ecity']);
  });
});

describe('indexSettings', () => {
  it('sizes the shared index: layout, 1 s refresh, limit + 1 hits, nested limits from the mapping', () => {
    expect(indexSettings(target, { shards: 3, replicas: 2 })).toEqual({
      index: {
        number_of_shards: 3,
        number_of_replicas: 2,
        refresh_interval: '1s',
        max_result_window: 10001,
        mapping: { nested_fields: { limit: 50 }, nested_objects: { limit: 100_000 }, total_fields: { limit: 1000 } },
      },
    });
  });

  it('raises the nested-fields limit when many string fields each have their text groups', () => {
    const many: SearchTarget = { ...customers, searchable: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`s${i}`, 'string'])) };
    const settings = indexSettings(many) as any;
    // 60 text groups + the entries tree (x, x.t, and per any level e, e.x, e.x.t) + margin
    expect(settings.index.mapping.nested_fields.limit).toBe(60 + 2 + 3 * ANY_DEPTH + 10);
    expect(settings.index.number_of_shards).toBe(1);
  });
});

describe('names', () => {
  it('alias and versioned index per (connector type, entity), with an optional prefix', () => {
    expect(aliasName(target)).toBe('payments__customers');
    expect(versionedIndexName(target, 3)).toBe('payments__customers__3');
    expect(versionedIndexName(target, 1, 'test-1-')).toBe('test-1-payments__customers__1');
  });

  it('document ids are unique per connector and bounded to 512 bytes', () => {
    expect(documentId('c1', 'cus_1')).toBe('c1:cus_1');
    const long = documentId('c1', 'é'.repeat(400));
    expect(long).toMatch(/^c1:sha256:[0-9a-f]{64}$/);
    expect(Buffer.byteLength(documentId('c1', 'é'.repeat(250)))).toBeLessThanOrEqual(512);
    expect(documentId('c1', 'é'.repeat(250))).toBe(`c1:${'é'.repeat(250)}`);
  });
});

/** Throws when `value` has a field the (strict) mapping does not declare, or of another type. */
function fits(value: unknown, mapping: any, path: string): void {
  const props = mapping.properties as Record<string, any> | undefined;
  if (props === undefined) throw new Error(`${path}: object where the mapping has a leaf`);
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const m = props[key];
    if (m === undefined) throw new Error(`${path}.${key}: not in the mapping`);
    const values = Array.isArray(v) ? v : [v];
    for (const item of values) {
      if (m.type === 'nested' || m.type === undefined) fits(item, m, `${path}.${key}`);
      else if (!leafFits(m.type, item)) throw new Error(`${path}.${key}: ${JSON.stringify(item)} is not a ${m.type}`);
    }
  }
}

function leafFits(type: string, v: unknown): boolean {
  if (type === 'keyword') return typeof v === 'string' && Buffer.byteLength(v) <= 32766;
  if (type === 'double') return typeof v === 'number' && Number.isFinite(v);
  if (type === 'boolean') return typeof v === 'boolean';
  if (type === 'integer') return Number.isInteger(v);
  if (type === 'long') return typeof v === 'string' && /^\d+$/.test(v);
  return false;
}

describe('derived documents fit the strict mapping', () => {
  it('for random records of every shape, down to and beyond the mapped element depth', () => {
    const mapping = indexMappings(customers) as any;
    const deep = (n: number): unknown => (n === 0 ? { sku: 'x', tags: ['a b', 'c'] } : { level: n, items: [deep(n - 1), 'stray'], meta: { at: n } });
    fc.assert(
      fc.property(dataset, (recs) => {
        for (const r of [...recs, { id: 'deep', doc: { orders: [deep(ANY_DEPTH + 2)], address: { x: [deep(2)] } } }]) {
          const doc = indexDocument(customers, 'conn', r.id, '42', r.doc);
          fits({ sx: doc.sx }, mapping, '');
        }
      }),
      { numRuns: 200, seed: 11 },
    );
  });
});
