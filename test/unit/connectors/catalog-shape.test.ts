/**
 * Internal consistency of the catalog: what the planner, the sandbox and the search contract rely
 * on without re-checking (ids, page sizes, params, partitions, credentials).
 */
import { describe, expect, it } from 'vitest';
import { SEARCH_RULES } from '../../../src/connectors/catalog/define.js';
import { catalog } from '../../../src/connectors/catalog/index.js';
import type { ConnectorDef, EntityDef, ReadSpec } from '../../../src/connectors/catalog/types.js';
import { paramSpecAt } from '../../../src/connectors/planner.js';

const kinds = Object.values(catalog);
const all = kinds.flatMap((def) => Object.values(def.entities).map((entity) => ({ def, entity, key: `${def.key}.${entity.name}` })));
const withRead = all.flatMap((x) => (x.entity.read === undefined ? [] : [{ ...x, read: x.entity.read }]));

/** The entity whose action a read calls (itself, or the one named by `read.entity`). */
const servingOf = (def: ConnectorDef, entity: EntityDef, read: ReadSpec): EntityDef | undefined =>
  read.entity === undefined ? entity : def.entities[read.entity];

describe('catalog shape', () => {
  it('keys kinds and entities by their own snake_case names', () => {
    for (const [key, def] of Object.entries(catalog)) expect(def.key).toBe(key);
    for (const { entity, key } of all) expect(entity.name, key).toMatch(/^[a-z][a-z0-9_]*$/);
  });

  it('gives every entity with `search` a non-empty searchable map and the search rules', () => {
    for (const { entity, key } of all.filter((x) => x.entity.actions.includes('search'))) {
      expect(Object.keys(entity.searchable ?? {}).length, key).toBeGreaterThan(0);
      for (const rule of SEARCH_RULES) expect(entity.rules, key).toContain(rule);
    }
    for (const { entity, key } of all.filter((x) => !x.entity.actions.includes('search'))) expect(entity.searchable, key).toBeUndefined();
  });

  it('uses valid sources; inferred searchable fields are record fields of the same type', () => {
    for (const { entity, key } of all) {
      expect(['reference', 'inferred'], key).toContain(entity.source);
      if (entity.source !== 'inferred') continue;
      for (const [field, type] of Object.entries(entity.searchable ?? {})) expect(entity.fields[field]?.type, `${key}.${field}`).toBe(type);
    }
  });

  it('makes idField a string or int record field', () => {
    for (const { entity, key } of all) expect(['string', 'int'], `${key}.${entity.idField}`).toContain(entity.fields[entity.idField]?.type);
  });

  it('matches every read page-size maximum with the param maximum', () => {
    for (const { def, entity, read, key } of withRead) {
      if (read.pageSize === undefined) continue;
      const param = servingOf(def, entity, read)?.params?.[read.pageSize.param];
      expect(param?.max, `${key} ${read.pageSize.param}`).toBe(read.pageSize.max);
      expect(read.pageSize.max, key).toBeGreaterThan(0);
    }
  });

  it('calls an action the serving entity has, with params it declares, required ones supplied', () => {
    for (const { def, entity, read, key } of withRead) {
      const serving = servingOf(def, entity, read);
      expect(serving, `${key} serving entity ${read.entity ?? ''}`).toBeDefined();
      expect(serving?.actions, key).toContain(read.action);
      const params = serving?.params ?? {};
      const used = [
        ...(read.paging.style === 'none' ? [] : [read.paging.param]),
        ...(read.incremental === undefined ? [] : [read.incremental.param]),
        ...(read.partitions ?? []).map((p) => p.param),
        ...Object.keys(read.fixedParams ?? {}),
      ];
      for (const p of used) expect(paramSpecAt(params, p), `${key} param ${p}`).toBeDefined();
      const supplied = new Set([...(read.partitions ?? []).map((p) => p.param), ...Object.keys(read.fixedParams ?? {})]);
      for (const [name, spec] of Object.entries(params)) if (spec.required === true) expect(supplied.has(name), `${key} required ${name}`).toBe(true);
      for (const [name, value] of Object.entries(read.fixedParams ?? {})) {
        const allowed = params[name]?.enum;
        if (allowed !== undefined) expect(allowed, `${key} ${name}`).toContain(value);
      }
      // A searchable field the list record lacks (work management's compact tasks) still names what the filter compares.
      const inc = read.incremental?.field;
      if (inc !== undefined) expect(serving?.fields[inc] ?? entity.fields[inc] ?? entity.searchable?.[inc], `${key} incremental field`).toBeDefined();
    }
  });

  it('partitions from existing, readable parents, config fields and allowed values', () => {
    for (const { def, read, key } of withRead) {
      const earlier: string[] = [];
      for (const dim of read.partitions ?? []) {
        if (dim.kind === 'config') expect(def.replicationConfig[dim.configField], `${key} config ${dim.configField}`).toBeDefined();
        if (dim.kind === 'values') {
          expect(dim.values.length, key).toBeGreaterThan(0);
          const allowed = servingOf(def, def.entities[key.split('.')[1] ?? ''] as EntityDef, read)?.params?.[dim.param]?.enum;
          if (allowed !== undefined) for (const v of dim.values) expect(allowed, key).toContain(v);
        }
        if (dim.kind === 'parent') {
          const parent = def.entities[dim.entity];
          expect(parent, `${key} parent ${dim.entity}`).toBeDefined();
          expect(parent?.read, `${key} parent ${dim.entity} read`).toBeDefined();
          if (dim.from !== undefined) expect(parent?.fields[dim.from], `${key} parent field ${dim.from}`).toBeDefined();
          if (dim.template !== undefined) expect(dim.template, key).toContain('{value}');
          if (dim.within !== undefined) {
            // Nesting means: the parent itself was read per that same param, in an earlier dimension here.
            expect(earlier, `${key} within ${dim.within}`).toContain(dim.within);
            expect(parent?.read?.partitions?.map((p) => p.param), `${key} parent partitioned by ${dim.within}`).toContain(dim.within);
          }
        }
        earlier.push(dim.param);
      }
    }
  });

  it('explains in a rule every listable or searchable entity left without a read', () => {
    for (const { entity, key } of all) {
      const listable = entity.actions.includes('list') || entity.actions.includes('search');
      if (!listable || entity.read !== undefined) continue;
      expect(entity.rules?.some((r) => r.startsWith('Not replicated')), key).toBe(true);
    }
  });

  it('reads issue-tracker issues per project with bounded JQL and the shown paging', () => {
    const read = catalog.issue_tracker?.entities.issues?.read;
    expect(read?.action).toBe('api_search');
    expect(read?.pageSize).toEqual({ param: 'maxResults', max: 5000 });
    expect(read?.paging).toEqual({ style: 'token', param: 'nextPageToken', from: 'nextPageToken', flag: { path: 'isLast', doneWhen: true } });
    const dim = read?.partitions?.[0];
    expect(dim?.kind === 'parent' && dim.param === 'jql' && dim.template?.startsWith('project = "{value}"')).toBe(true);
  });

  it('defines unambiguous credential methods (no input fits two methods)', () => {
    for (const def of kinds) {
      const names = def.credentialMethods.map((m) => m.name);
      expect(new Set(names).size, def.key).toBe(names.length);
      expect(names.length, def.key).toBeGreaterThan(0);
      for (const a of def.credentialMethods) {
        const required = Object.entries(a.fields).filter(([, f]) => f.required).map(([k]) => k);
        expect(required.length, `${def.key}.${a.name}`).toBeGreaterThan(0);
        for (const b of def.credentialMethods) {
          if (a !== b) expect(required.every((k) => Object.hasOwn(b.fields, k)), `${def.key}: ${a.name} fits ${b.name}`).toBe(false);
        }
      }
      for (const m of def.unavailableMethods ?? []) expect(names, def.key).not.toContain(m);
    }
    expect(catalog.file_storage_drive?.credentialMethods.map((m) => m.name)).toEqual(['oauth']);
  });
});
