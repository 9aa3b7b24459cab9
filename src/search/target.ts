import { getConnectorDef, getEntityDef } from '../connectors/catalog/index.js';
import { AppError } from '../errors.js';
import type { EntityDef, FieldFormat } from '../connectors/catalog/types.js';
import type { SearchTarget } from './dsl/ast.js';

const LOOKUP_FORMATS: ReadonlySet<FieldFormat> = new Set(['id', 'email', 'phone', 'name', 'first_name', 'last_name', 'company']);
const MAX_LOOKUP = 4;

/**
 * Fields that get an exact-match (`eq`/`in`/`contains`) index: searchable top-level strings the
 * catalog marks as identifiers, emails, phones or names; the id field itself is the primary key.
 * Few on purpose: every indexed value is paid for on every page write.
 */
export function lookupFields(def: EntityDef): string[] {
  const searchable = def.searchable ?? {};
  return Object.entries(def.fields)
    .filter(([name, spec]) => name !== def.idField && searchable[name] === 'string' && spec.format !== undefined && LOOKUP_FORMATS.has(spec.format))
    .map(([name]) => name)
    .slice(0, MAX_LOOKUP);
}

/** The search target of a connector kind's entity; `entity_not_searchable` when it has no `search`. */
export function searchTarget(connectorType: string, entity: string): SearchTarget {
  const def = getEntityDef(getConnectorDef(connectorType), entity);
  if (!def.actions.includes('search') || def.searchable === undefined) {
    throw new AppError('entity_not_searchable', `${entity} of ${connectorType} does not support search`, { path: 'entity' });
  }
  return { connectorType, entity, idField: def.idField, searchable: def.searchable, lookup: lookupFields(def) };
}
