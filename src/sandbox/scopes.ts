/**
 * Which datasets exist and which one a call reads. A dataset's scope is its partition values
 * joined by `|` (a template's value, not the filled text: the project key, not the JQL). Parent
 * values are what the parent's own datasets hold, so the values the sandbox lists for bases are
 * exactly the ones it accepts for tables, and a table's records belong to that table's base.
 */
import type { ConnectorDef, PartitionSpec } from '../connectors/catalog/types.js';
import { applyTemplate, configValues, matchTemplate, type ParentDim } from '../connectors/planner.js';
import { AppError } from '../errors.js';
import { bad } from './check-params.js';
import type { ServeSpec } from './serve-spec.js';

/** One existing partition: the params a caller sends and the scope of its dataset. */
export interface ScopePartition {
  readonly params: Readonly<Record<string, string>>;
  readonly scope: string;
}

/** What the index reads from the sandbox. */
export interface ScopeHost {
  kind(type: string): ConnectorDef;
  /** Live records of one dataset. */
  liveRecords(type: string, entity: string, scope: string): Record<string, unknown>[];
  /** Values of dimension `index` in the entity's datasets created so far (config dims without a config). */
  seenValues(type: string, entity: string, index: number): string[];
}

const joinScope = (values: readonly string[]): string => values.join('|');

/** The scope of a call no partition describes: its filter params, canonically ordered. */
function queryScope(spec: ServeSpec, params: Record<string, unknown>): string {
  const skip = new Set([spec.paging.style === 'none' ? '' : spec.paging.param, spec.pageSize?.param ?? '']);
  const kept = Object.keys(params).filter((k) => !skip.has(k)).sort().map((k) => [k, params[k]]);
  return `?${JSON.stringify(kept)}`;
}

export class ScopeIndex {
  private readonly cache = new Map<string, unknown>();

  constructor(private readonly host: ScopeHost) {}

  /** Forgets derived values (after configure or mutations). */
  invalidate(): void {
    this.cache.clear();
  }

  private cached<T>(key: string, make: () => T): T {
    if (!this.cache.has(key)) this.cache.set(key, make());
    return this.cache.get(key) as T;
  }

  private dimValues(type: string, entity: string, dim: PartitionSpec, index: number, partial: Record<string, string>, config?: Record<string, unknown>): string[] {
    if (dim.kind === 'values') return [...dim.values];
    if (dim.kind === 'config') return config === undefined ? this.host.seenValues(type, entity, index) : configValues(dim, config);
    return [...this.parentValues(type, dim, partial)];
  }

  /** Every partition of an entity that exists given its parents' datasets (config dims: given, else seen). */
  partitions(type: string, entity: string, config?: Record<string, unknown>): ScopePartition[] {
    const make = (): ScopePartition[] => {
      const dims = this.host.kind(type).entities[entity]?.read?.partitions ?? [];
      let out: { params: Record<string, string>; values: string[] }[] = [{ params: {}, values: [] }];
      dims.forEach((dim, index) => {
        out = out.flatMap((p) =>
          this.dimValues(type, entity, dim, index, p.params, config).map((v) => ({
            params: { ...p.params, [dim.param]: dim.kind === 'parent' && dim.template !== undefined ? applyTemplate(dim.template, v) : v },
            values: [...p.values, v],
          })),
        );
      });
      const byScope = new Map(out.map((p) => [joinScope(p.values), { params: p.params, scope: joinScope(p.values) }]));
      return [...byScope.values()];
    };
    // Config values are only known once called (or given), so such lists are never cached.
    const dims = this.host.kind(type).entities[entity]?.read?.partitions ?? [];
    const cacheable = config === undefined && dims.every((d) => d.kind !== 'config');
    return cacheable ? this.cached(`partitions:${type}/${entity}`, make) : make();
  }

  /** Values of a parent dimension (its `from` field, else the parent id); `within` keeps those read under the same value. */
  parentValues(type: string, dim: ParentDim, partial: Record<string, string>): Set<string> {
    const within = dim.within === undefined ? '' : `${dim.within}=${partial[dim.within] ?? ''}`;
    return this.cached(`values:${type}/${dim.entity}/${dim.from ?? ''}/${within}`, () => {
      const parent = this.host.kind(type).entities[dim.entity];
      const values = new Set<string>();
      for (const part of this.partitions(type, dim.entity)) {
        if (dim.within !== undefined && part.params[dim.within] !== partial[dim.within]) continue;
        for (const r of this.host.liveRecords(type, dim.entity, part.scope)) {
          const v = r[dim.from ?? parent?.idField ?? 'id'];
          if (typeof v === 'string' || typeof v === 'number') values.add(String(v));
        }
      }
      return values;
    });
  }

  /**
   * The scope a call reads: its partition values when it names them all, else its query. A parent
   * value the parent does not hold is a 404, as the third party answers for an unknown base or project.
   */
  scopeOf(type: string, spec: ServeSpec, params: Record<string, unknown>): string {
    if (spec.keyedByQuery) return queryScope(spec, params);
    if (spec.partitions.length === 0) return '';
    const values: string[] = [];
    const partial: Record<string, string> = {};
    for (const dim of spec.partitions) {
      const raw = params[dim.param];
      const value = typeof raw !== 'string' ? null : dim.kind === 'parent' && dim.template !== undefined ? matchTemplate(dim.template, raw) : raw;
      if (value === null) return queryScope(spec, params);
      if (dim.kind === 'parent' && !this.parentValues(type, dim, partial).has(value)) {
        const err = bad(`${dim.param}: no ${dim.entity} record "${value}"`, dim.param);
        throw new AppError('not_found', err.message, { path: err.path });
      }
      partial[dim.param] = String(raw);
      values.push(value);
    }
    return joinScope(values);
  }
}
