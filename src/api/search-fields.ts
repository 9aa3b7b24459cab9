/**
 * What the dashboard's search console offers for an entity: its searchable fields with their
 * catalog types, the operators DESIGN §6 allows on each, and whether it can be sorted on. Derived
 * from the catalog only; the search service still validates every filter it is sent.
 */
import { getConnectorDef } from '../connectors/catalog/index.js';
import type { EntityDef, FieldType } from '../connectors/catalog/types.js';

const COMPARE = ['gt', 'gte', 'lt', 'lte'];
const TEXT = ['like', 'fuzzy', 'keyword'];

/** Operators by field type (on arrays a comparison holds when any element satisfies it). */
function operatorsOf(type: FieldType, items: string | null): string[] {
  if (type === 'string') return ['eq', 'neq', 'in', ...TEXT, ...COMPARE];
  if (type === 'int' || type === 'number') return ['eq', 'neq', 'in', ...COMPARE];
  if (type === 'boolean') return ['eq', 'neq', 'in'];
  if (type === 'object') return ['eq', 'neq', 'in', ...COMPARE, ...TEXT];
  if (items === 'object') return ['any', 'eq', 'neq'];
  if (items === 'string') return ['contains', 'eq', 'neq', 'in', ...TEXT];
  return ['contains', 'eq', 'neq', 'in', ...COMPARE];
}

/** One searchable field as the console lists it. */
export interface SearchField {
  readonly path: string;
  readonly type: FieldType;
  /** Element type of an array field (`object` for arrays of objects, searched with `any`). */
  readonly items: string | null;
  /** Keys of an object field or of an array's object elements, when the catalog knows them. */
  readonly keys: string[];
  readonly operators: string[];
  readonly sortable: boolean;
}

function fieldOf(entity: EntityDef, path: string, type: FieldType): SearchField {
  const spec = entity.fields[path];
  const items = spec?.items === undefined ? null : typeof spec.items === 'string' ? spec.items : 'object';
  const shape = typeof spec?.items === 'object' ? spec.items : spec?.shape;
  return { path, type, items, keys: Object.keys(shape ?? {}), operators: operatorsOf(type, items), sortable: type !== 'object' && type !== 'array' };
}

/** The searchable fields of the given entities of a connector type, by entity. */
export function searchFields(connectorType: string, entities: readonly string[]): { entity: string; id_field: string; fields: SearchField[] }[] {
  const def = getConnectorDef(connectorType);
  return entities.flatMap((name) => {
    const entity = def.entities[name];
    if (entity?.searchable === undefined) return [];
    return [{ entity: name, id_field: entity.idField, fields: Object.entries(entity.searchable).map(([path, type]) => fieldOf(entity, path, type)) }];
  });
}
