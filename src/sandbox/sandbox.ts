/**
 * The sandbox connector runtime: the runtime protocol of DESIGN §4 over generated datasets.
 * State lives in this object; the HTTP layer (server.ts) is a thin shell around it.
 */
import { catalog } from '../connectors/catalog/index.js';
import type { EntityDef } from '../connectors/catalog/types.js';
import { AppError } from '../errors.js';
import { Dataset } from './dataset.js';
import { FaultPlan } from './faults.js';
import { Rng } from './prng.js';
import { serveList, type ListResponse } from './serve-list.js';

/** The body of `POST /v1/execute`. */
export interface ExecuteRequest {
  connector_type: string;
  credentials?: Record<string, unknown>;
  entity: string;
  action: string;
  params?: Record<string, unknown>;
}

/** Sandbox-wide defaults. */
export interface SandboxOptions {
  readonly seed?: number;
  readonly defaultSize?: number;
}

export class Sandbox {
  readonly faults = new FaultPlan();
  private readonly datasets = new Map<string, Dataset>();
  private readonly sizes = new Map<string, number>();
  private seed: number;
  private defaultSize: number;
  private mutationRng: Rng;

  constructor(opts: SandboxOptions = {}) {
    this.seed = opts.seed ?? 42;
    this.defaultSize = opts.defaultSize ?? 25;
    this.mutationRng = new Rng(this.seed);
  }

  private entityDef(type: string, entity: string): EntityDef {
    const def = Object.hasOwn(catalog, type) ? catalog[type]?.entities[entity] : undefined;
    if (def === undefined) throw new AppError('not_found', `unknown entity ${type}.${entity}`, { path: 'entity' });
    return def;
  }

  /** Partition params (account, base, table, channel...) select a distinct dataset. */
  private scopeOf(def: EntityDef, params: Record<string, unknown>): string {
    return (def.read?.partitions ?? []).map((p) => String(params[p.param] ?? '')).join('|');
  }

  /** The dataset for a (type, entity, scope), created on first use. */
  dataset(type: string, entity: string, scope = ''): Dataset {
    const key = `${type}/${entity}/${scope}`;
    let ds = this.datasets.get(key);
    if (ds === undefined) {
      const size = this.sizes.get(`${type}/${entity}`) ?? this.defaultSize;
      ds = new Dataset(this.entityDef(type, entity), this.seed, scope, size);
      this.datasets.set(key, ds);
    }
    return ds;
  }

  /** Sets dataset size (and optionally the seed) and forgets generated state and mutations. */
  configure(opts: { connectorType?: string; entity?: string; size?: number; seed?: number; defaultSize?: number }): void {
    if (opts.seed !== undefined) {
      this.seed = opts.seed;
      this.mutationRng = new Rng(opts.seed);
    }
    if (opts.defaultSize !== undefined) this.defaultSize = opts.defaultSize;
    if (opts.connectorType !== undefined && opts.entity !== undefined && opts.size !== undefined) {
      this.entityDef(opts.connectorType, opts.entity);
      this.sizes.set(`${opts.connectorType}/${opts.entity}`, opts.size);
    }
    this.datasets.clear();
  }

  mutate(type: string, entity: string, m: { create?: number; update?: number; delete?: number }, scope = ''): ReturnType<Dataset['mutate']> {
    return this.dataset(type, entity, scope).mutate(m, (n) => Math.floor(this.mutationRng.next() * n));
  }

  /** Runs one action; list and api_search are served, others are refused like an unsupported call. */
  execute(req: ExecuteRequest): ListResponse {
    const def = this.entityDef(req.connector_type, req.entity);
    if (!def.actions.includes(req.action as never)) {
      throw new AppError('invalid_request', `${req.entity} has no action "${req.action}"`, { path: 'action' });
    }
    if (req.action !== def.read?.action) {
      throw new AppError('invalid_request', `the sandbox serves only ${def.read?.action ?? 'no'} reads of ${req.entity}`, { path: 'action' });
    }
    const params = req.params ?? {};
    return serveList(def, this.dataset(req.connector_type, req.entity, this.scopeOf(def, params)), params);
  }
}
