import { AppError } from '../../errors.js';
import { payments } from './kinds/payments.js';
import type { ConnectorDef, EntityDef } from './types.js';

export type * from './types.js';

/** Every connector kind, keyed by its neutral key (DESIGN §4). */
export const catalog: Readonly<Record<string, ConnectorDef>> = Object.freeze({
  payments,
});

/** The connector kind for a key, or an `invalid_request` naming the valid keys. */
export function getConnectorDef(key: string, path = 'connector_type'): ConnectorDef {
  const def = Object.hasOwn(catalog, key) ? catalog[key] : undefined;
  if (def === undefined) {
    throw new AppError('invalid_request', `unknown connector_type "${key}"; expected one of: ${Object.keys(catalog).join(', ')}`, { path });
  }
  return def;
}

/** The entity of a connector kind, or a `not_found`-free `invalid_request` naming the valid entities. */
export function getEntityDef(connector: ConnectorDef, entity: string, path = 'entity'): EntityDef {
  const def = Object.hasOwn(connector.entities, entity) ? connector.entities[entity] : undefined;
  if (def === undefined) {
    throw new AppError('invalid_request', `unknown entity "${entity}" for ${connector.key}; expected one of: ${Object.keys(connector.entities).join(', ')}`, { path });
  }
  return def;
}

/** Entities that list `search` (they are replicated and indexed). */
export function searchableEntities(connector: ConnectorDef): EntityDef[] {
  return Object.values(connector.entities).filter((e) => e.actions.includes('search'));
}
