/**
 * The catalog against the entity reference (seed 001), parsed from the text: every part-4 entity
 * with its actions, and every searchable field and type that part 2 shows.
 */
import { describe, expect, it } from 'vitest';
import { catalog, searchableEntities } from '../../../src/connectors/catalog/index.js';
import type { FieldType } from '../../../src/connectors/catalog/types.js';
import {
  IRREGULAR_TOKENS,
  type SearchableStatement,
  parseActionTables,
  parseGroups,
  parseRecordLine,
  readSeed,
  recordLine,
  searchableStatements,
} from './seed-parser.js';

const text = readSeed();
const dropped: string[] = [];
const tables = parseActionTables(text, dropped);
const statements = searchableStatements(text);

/**
 * The four statements written in prose ("same names", "the names above") cannot be parsed as
 * groups; each gets an explicit expectation built from the entity's own record line, and the
 * prose is pinned so a changed seed fails here rather than passing silently.
 */
const FREE_TEXT: Record<string, { readonly prose: RegExp; readonly expected: (s: SearchableStatement) => Record<string, FieldType> }> = {
  // "same names; duration int; isPrivate boolean; others string."
  'sales_call_intelligence.calls': {
    prose: /^same names; duration int; isPrivate boolean; others string\.$/,
    expected: (s) => ({
      ...Object.fromEntries(Object.keys(parseRecordLine(s.line)).map((k) => [k, 'string' as FieldType])),
      duration: 'int',
      isPrivate: 'boolean',
    }),
  },
  // "the same names (strings, objects for addresses and metadata, boolean auto_collection) except tax_id."
  // The record types say exactly that (addresses/metadata object, auto_collection boolean, rest string).
  'usage_billing.customers': {
    prose: /^the same names \(strings, objects for addresses and metadata, boolean auto_collection\) except tax_id\.$/,
    expected: (s) => {
      const { tax_id: _omitted, ...rest } = parseRecordLine(s.line);
      return rest;
    },
  },
  // "the same names plus modules array; objects: ...; booleans: ...; ints: ...; others string."
  // Record names with record types, plus `modules`; the typed groups must agree with the record.
  'email_campaigns.lists': {
    prose: /^the same names plus modules array; (.+); others string\.$/,
    expected: (s) => {
      const record = parseRecordLine(recordLine(text, s.kind, s.entity));
      const groups = parseGroups(s.body.replace(/^the same names plus /, '').replace(/; others string\.$/, ''));
      for (const [k, t] of Object.entries(groups)) if (k !== 'modules') expect(record[k], `lists.${k}`).toBe(t);
      return { ...record, modules: 'array' };
    },
  },
  // "the names above plus <groups>": the record fields with their types, plus the parsed groups.
  'customer_messaging.contacts': {
    prose: /^the names above plus /,
    expected: (s) => ({ ...parseRecordLine(s.line), ...parseGroups(s.body.replace(/^the names above plus /, '')) }),
  },
};

/** Statements the seed itself marks incomplete: the catalog may add fields beyond the shown ones. */
const PARTIAL: Record<string, string> = {
  'live_chat_support.chats': '`chats` searchable shown:',
  'usage_billing.plans': 'searchable fields of invoices and of plans beyond those above: not shown',
};

function expectedOf(s: SearchableStatement): Record<string, FieldType> {
  const free = FREE_TEXT[`${s.kind}.${s.entity}`];
  if (free !== undefined) {
    expect(s.body, `${s.kind}.${s.entity} prose`).toMatch(free.prose);
    return free.expected(s);
  }
  if (/same names|names above/i.test(s.body)) throw new Error(`unhandled prose statement for ${s.kind}.${s.entity}: ${s.body}`);
  return parseGroups(s.body);
}

describe('catalog vs entity reference part 4 (entities and actions)', () => {
  it('covers exactly the 17 kinds of the reference', () => {
    expect([...tables.keys()].sort()).toEqual(Object.keys(catalog).sort());
    expect(Object.keys(catalog)).toHaveLength(17);
  });

  it('drops only the one irregular work-management token', () => {
    expect(dropped).toEqual([`work_management: ${IRREGULAR_TOKENS[0]}`]);
  });

  for (const [kind, entities] of tables) {
    it(`${kind}: same entities, each with exactly the listed actions`, () => {
      const def = catalog[kind];
      expect(def, kind).toBeDefined();
      expect(Object.keys(def?.entities ?? {}).sort()).toEqual([...entities.keys()].sort());
      for (const [entity, actions] of entities) {
        const got = def?.entities[entity]?.actions ?? [];
        expect([...got].sort(), `${kind}.${entity}`).toEqual([...actions].sort());
        expect(new Set(got).size, `${kind}.${entity} duplicate actions`).toBe(got.length);
      }
    });
  }

  it('has 77 entities that list search, all searchable in the catalog', () => {
    const fromSeed = [...tables.values()].flatMap((m) => [...m.values()]).filter((a) => a.includes('search'));
    expect(fromSeed).toHaveLength(77);
    const fromCatalog = Object.values(catalog).flatMap((d) => searchableEntities(d));
    expect(fromCatalog).toHaveLength(77);
    for (const e of fromCatalog) expect(Object.keys(e.searchable ?? {}).length, e.name).toBeGreaterThan(0);
  });
});

describe('catalog vs entity reference part 2 (searchable fields)', () => {
  it('finds the 32 searchable statements the design counts', () => {
    expect(statements).toHaveLength(32);
    for (const phrase of Object.values(PARTIAL)) expect(text).toContain(phrase);
  });

  for (const s of statements) {
    const key = `${s.kind}.${s.entity}`;
    it(`${key}: shown searchable fields with their shown types`, () => {
      const entity = catalog[s.kind]?.entities[s.entity];
      expect(entity, key).toBeDefined();
      expect(entity?.source, `${key} source`).toBe('reference');
      const expected = expectedOf(s);
      expect(Object.keys(expected).length, `${key} parsed nothing`).toBeGreaterThan(0);
      const got = entity?.searchable ?? {};
      for (const [field, type] of Object.entries(expected)) expect(got[field], `${key}.${field}`).toBe(type);
      if (PARTIAL[key] === undefined) expect(Object.keys(got).sort(), `${key} exact field set`).toEqual(Object.keys(expected).sort());
    });
  }

  it('marks every searchable entity without a statement as inferred', () => {
    const shown = new Set(statements.map((s) => `${s.kind}.${s.entity}`));
    const inferred = Object.values(catalog).flatMap((d) =>
      searchableEntities(d).filter((e) => !shown.has(`${d.key}.${e.name}`)).map((e) => ({ key: `${d.key}.${e.name}`, source: e.source })),
    );
    expect(inferred).toHaveLength(45);
    for (const e of inferred) expect(e.source, e.key).toBe('inferred');
  });
});
