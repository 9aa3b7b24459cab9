/** The read path of an entity as the worker calls it. */
import { AppError } from '../../errors.js';
import type { ConnectorDef, EntityDef, ReadSpec } from '../catalog/types.js';
import { toWireParams } from './wire-params.js';

/** The entity's read spec, or an `invalid_request` saying it cannot be replicated. */
export function readOf(entity: EntityDef): ReadSpec {
  if (entity.read === undefined) throw new AppError('invalid_request', `${entity.name} cannot be replicated: it has no list action`, { path: 'entity' });
  return entity.read;
}

/** Entity and action named in the runtime call: `read.entity` when the entity is read through another's list. */
export interface ReadCall {
  readonly entity: string;
  readonly action: ReadSpec['action'];
}

export function readCall(entity: EntityDef): ReadCall {
  const read = readOf(entity);
  return { entity: read.entity ?? entity.name, action: read.action };
}

/** A page request's params as the runtime takes them (object params nested), per the serving entity's declared params. */
export function runtimeParams(def: ConnectorDef, entity: EntityDef, params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const serving = def.entities[readOf(entity).entity ?? entity.name] ?? entity;
  return toWireParams(serving.params ?? {}, params);
}
