import { getConnectorDef, getEntityDef } from '../connectors/catalog/index.js';
import { AppError } from '../errors.js';
import type { SearchTarget } from './dsl/ast.js';

/** The search target of a connector kind's entity; `entity_not_searchable` when it has no `search`. */
export function searchTarget(connectorType: string, entity: string): SearchTarget {
  const def = getEntityDef(getConnectorDef(connectorType), entity);
  if (!def.actions.includes('search') || def.searchable === undefined) {
    throw new AppError('entity_not_searchable', `${entity} of ${connectorType} does not support search`, { path: 'entity' });
  }
  return { connectorType, entity, idField: def.idField, searchable: def.searchable };
}
