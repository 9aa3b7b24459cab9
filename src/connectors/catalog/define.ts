import type { ConnectorDef, EntityDef, ParamSpec } from './types.js';

/** Overview §7 rule 6 and §8: they bind every entity that lists `search`, so they are added here once. */
export const SEARCH_RULES: readonly string[] = [
  '`search` runs in hosted mode only (overview §7 rule 6)',
  '`search` `limit` defaults to 1000 (overview §8)',
];

/** Entities keyed by their own name, so a key can never disagree with `name`. */
export function byName(...entities: EntityDef[]): Record<string, EntityDef> {
  const out: Record<string, EntityDef> = {};
  for (const e of entities) {
    if (Object.hasOwn(out, e.name)) throw new Error(`duplicate entity ${e.name}`);
    out[e.name] = e;
  }
  return out;
}

/** Finishes a kind: appends the search rules to searchable entities and freezes the result. */
export function defineConnector(def: ConnectorDef): ConnectorDef {
  const entities: Record<string, EntityDef> = {};
  for (const [key, e] of Object.entries(def.entities)) {
    if (key !== e.name) throw new Error(`${def.key}: entity key ${key} differs from name ${e.name}`);
    const rules = e.actions.includes('search') ? [...(e.rules ?? []), ...SEARCH_RULES] : e.rules;
    entities[key] = Object.freeze(rules === undefined ? { ...e } : { ...e, rules: Object.freeze(rules) });
  }
  return Object.freeze({ ...def, entities: Object.freeze(entities) });
}

/** Optional string params (filters, bounds) named the way the reference lists them. */
export function stringParams(names: string): Record<string, ParamSpec> {
  return Object.fromEntries(names.split(/\s+/).filter((n) => n !== '').map((n) => [n, { type: 'string' }]));
}
