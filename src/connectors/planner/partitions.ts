/**
 * Partitions of an entity: the cartesian product of its dimensions (config values, fixed values,
 * parent records), where a nested parent (`within`) only pairs with the values it was read under.
 */
import { AppError } from '../../errors.js';
import type { EntityDef, PartitionSpec } from '../catalog/types.js';
import { readOf } from './read.js';
import { applyTemplate } from './template.js';

/** Params that select one partition (e.g. `{account_id: "123"}`); `{}` for unpartitioned entities. */
export type Partition = Readonly<Record<string, string | number>>;

export type ParentDim = Extract<PartitionSpec, { kind: 'parent' }>;

/** One parent value and the parent partition it was read under (what `within` compares). */
export interface ParentValue {
  readonly value: string;
  readonly partition: Partition;
}

/**
 * Resolved parent values by {@link parentKey}. A plain string stands for a value read from an
 * unpartitioned parent. The worker resolves them through the runtime at the start of a run.
 */
export type ParentValues = Readonly<Record<string, readonly (string | ParentValue)[]>>;

/** The parent dimensions of an entity's read. */
export function parentDims(entity: EntityDef): ParentDim[] {
  return (readOf(entity).partitions ?? []).filter((d): d is ParentDim => d.kind === 'parent');
}

/** Key of a parent dimension's values: the parent entity, plus the field when it is not the id. */
export function parentKey(dim: ParentDim): string {
  return dim.from === undefined ? dim.entity : `${dim.entity}.${dim.from}`;
}

/** The value a parent record contributes to a dimension, or null when it has none. */
export function parentValueOf(dim: ParentDim, parent: EntityDef, record: Record<string, unknown>): string | null {
  const v = record[dim.from ?? parent.idField];
  return typeof v === 'string' || typeof v === 'number' ? String(v) : null;
}

/** Values of a `config` dimension: a list or a comma-separated string from replication_config. */
export function configValues(dim: Extract<PartitionSpec, { kind: 'config' }>, config: Record<string, unknown>): string[] {
  const raw = config[dim.configField];
  return (Array.isArray(raw) ? raw.map(String) : String(raw ?? '').split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

const uniq = (values: readonly string[]): string[] => [...new Set(values)];

function parentValuesFor(entity: EntityDef, dim: ParentDim, parents: ParentValues, partial: Partition): string[] {
  const key = parentKey(dim);
  const list = Object.hasOwn(parents, key) ? parents[key] : undefined;
  // Planning zero partitions for lack of resolution would make a full run tombstone everything.
  if (list === undefined) throw new AppError('internal', `parent values of ${key} were not resolved for ${entity.name}`);
  const values: string[] = [];
  for (const item of list) {
    const pv: ParentValue = typeof item === 'string' ? { value: item, partition: {} } : item;
    if (dim.within !== undefined && pv.partition[dim.within] !== partial[dim.within]) continue;
    values.push(dim.template === undefined ? pv.value : applyTemplate(dim.template, pv.value));
  }
  return uniq(values);
}

function dimValues(entity: EntityDef, dim: PartitionSpec, config: Record<string, unknown>, parents: ParentValues, partial: Partition): string[] {
  if (dim.kind === 'values') return uniq(dim.values);
  if (dim.kind === 'parent') return parentValuesFor(entity, dim, parents, partial);
  const values = uniq(configValues(dim, config));
  if (values.length === 0) {
    throw new AppError('invalid_request', `${dim.configField} is required to replicate ${entity.name}`, { path: `replication_config.${dim.configField}` });
  }
  return values;
}

/**
 * Partitions in a stable order (dimension by dimension, values in the order given). The same
 * value met twice (two parents with one key) yields one partition.
 */
export function planPartitions(entity: EntityDef, config: Record<string, unknown>, parents: ParentValues = {}): Partition[] {
  let out: Partition[] = [{}];
  for (const dim of readOf(entity).partitions ?? []) {
    out = out.flatMap((p) => dimValues(entity, dim, config, parents, p).map((v) => ({ ...p, [dim.param]: v })));
  }
  return out;
}
