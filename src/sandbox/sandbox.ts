/**
 * The sandbox connector runtime: the runtime protocol of DESIGN §4 over generated datasets.
 * State lives in this object; the HTTP layer (server.ts) is a thin shell around it.
 */
import { catalog } from '../connectors/catalog/index.js';
import type { ConnectorDef, EntityDef } from '../connectors/catalog/types.js';
import { fromWireParams } from '../connectors/planner.js';
import { AppError } from '../errors.js';
import { checkParams, checkRules } from './check-params.js';
import { Dataset } from './dataset.js';
import { FaultPlan } from './faults.js';
import { creationField } from './generate.js';
import { hash32, Rng } from './prng.js';
import { decoratorFor } from './realism.js';
import { ScopeIndex, type ScopePartition } from './scopes.js';
import { serveGet, serveList, type GetResponse, type ListResponse } from './serve-list.js';
import { setPath } from './meta.js';
import { serveSpecOf } from './serve-spec.js';

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
  /** Records of a dataset that no parent scopes (default 25). */
  readonly defaultSize?: number;
  /** Records of a dataset under one parent record (a base's tables), varying per parent up to this (default min(defaultSize, 5)). */
  readonly nestedSize?: number;
  /** Wall clock (ms) that records created by a mutation are stamped with, at the earliest (default Date.now). */
  readonly now?: () => number;
}

/** The live records of an entity: one dataset, or the union over its partitions. */
export interface RecordsView {
  readonly count: number;
  readonly data: Record<string, unknown>[];
  readonly partitions: ScopePartition[];
}

export type Mutation = { create?: number; update?: number; delete?: number };

export class Sandbox {
  readonly faults = new FaultPlan();
  private readonly datasets = new Map<string, Dataset>();
  private readonly sizes = new Map<string, number>();
  private readonly scopes: ScopeIndex;
  private seed: number;
  private defaultSize: number;
  private nestedSize: number | undefined;
  private mutationRng: Rng;
  private readonly now: () => number;

  constructor(opts: SandboxOptions = {}) {
    this.seed = opts.seed ?? 42;
    this.defaultSize = opts.defaultSize ?? 25;
    this.nestedSize = opts.nestedSize;
    this.mutationRng = new Rng(this.seed);
    this.now = opts.now ?? Date.now;
    this.scopes = new ScopeIndex({
      kind: (type) => this.kind(type),
      liveRecords: (type, entity, scope) => this.dataset(type, entity, scope).all(),
      seenValues: (type, entity, index) => this.seenValues(type, entity, index),
    });
  }

  kind(type: string): ConnectorDef {
    const def = Object.hasOwn(catalog, type) ? catalog[type] : undefined;
    if (def === undefined) throw new AppError('not_found', `unknown connector type ${type}`, { path: 'connector_type' });
    return def;
  }

  private entityDef(type: string, entity: string): EntityDef {
    const def = Object.hasOwn(this.kind(type).entities, entity) ? this.kind(type).entities[entity] : undefined;
    if (def === undefined) throw new AppError('not_found', `unknown entity ${type}.${entity}`, { path: 'entity' });
    return def;
  }

  /** The entity whose datasets hold an entity's records: the list it is read through, else itself. */
  private owner(type: string, entity: string): string {
    return this.entityDef(type, entity).read?.entity ?? entity;
  }

  /** What records of an owner look like: its fields plus those of entities read through it (teams via workspace_teams). */
  private generationDef(type: string, owner: string): EntityDef {
    const def = this.entityDef(type, owner);
    const readers = Object.values(this.kind(type).entities).filter((e) => e.read?.entity === owner);
    return readers.length === 0 ? def : { ...def, fields: Object.assign({}, def.fields, ...readers.map((r) => r.fields)) };
  }

  /** Fields a parent dimension of this kind reads by `from`: they must be unique per record. */
  private uniqueFields(type: string, entity: string): Set<string> {
    const dims = Object.values(this.kind(type).entities).flatMap((e) => e.read?.partitions ?? []);
    return new Set(dims.flatMap((d) => (d.kind === 'parent' && d.entity === entity && d.from !== undefined ? [d.from] : [])));
  }

  private sizeFor(type: string, owner: string, def: EntityDef, scope: string): number {
    // A get answers one record per partition (one ad account per account id).
    if (def.read?.action === 'get') return 1;
    const configured = this.sizes.get(`${type}/${owner}`);
    if (configured !== undefined) return configured;
    const nested = scope !== '' && !scope.startsWith('?') && (def.read?.partitions ?? []).some((d) => d.kind === 'parent');
    if (!nested) return this.defaultSize;
    // Parents differ in size (some are empty), deterministically per parent.
    const max = this.nestedSize ?? Math.min(this.defaultSize, 5);
    const min = Math.floor(max / 2);
    return min + (hash32(`${this.seed}|${scope}`) % (max - min + 1));
  }

  /** The dataset for a (type, entity, scope), created on first use. */
  dataset(type: string, entity: string, scope = ''): Dataset {
    const owner = this.owner(type, entity);
    const key = `${type}/${owner}/${scope}`;
    let ds = this.datasets.get(key);
    if (ds === undefined) {
      const def = this.generationDef(type, owner);
      const dims = def.read?.partitions ?? [];
      const values = scope === '' || scope.startsWith('?') ? [] : scope.split('|');
      const partition = Object.fromEntries(dims.flatMap((d, i) => (values[i] === undefined ? [] : [[d.param, values[i]]])));
      const decorate = decoratorFor(type, owner);
      const ctx = { entity: def, seed: this.seed, scope, createdField: creationField(def), partition, uniqueFields: this.uniqueFields(type, owner), ...(decorate === undefined ? {} : { decorate }) };
      ds = new Dataset(ctx, this.sizeFor(type, owner, def, scope));
      this.datasets.set(key, ds);
    }
    return ds;
  }

  private seenValues(type: string, entity: string, index: number): string[] {
    const prefix = `${type}/${this.owner(type, entity)}/`;
    const keys = [...this.datasets.keys()].filter((k) => k.startsWith(prefix) && !k.slice(prefix.length).startsWith('?'));
    return [...new Set(keys.map((k) => k.slice(prefix.length).split('|')[index] ?? '').filter((v) => v !== ''))];
  }

  /** Sets dataset sizes (and optionally the seed) and forgets generated state and mutations. */
  configure(opts: { connectorType?: string; entity?: string; size?: number; seed?: number; defaultSize?: number; nestedSize?: number }): void {
    if (opts.seed !== undefined) {
      this.seed = opts.seed;
      this.mutationRng = new Rng(opts.seed);
    }
    if (opts.defaultSize !== undefined) this.defaultSize = opts.defaultSize;
    if (opts.nestedSize !== undefined) this.nestedSize = opts.nestedSize;
    if (opts.connectorType !== undefined && opts.entity !== undefined && opts.size !== undefined) {
      this.sizes.set(`${opts.connectorType}/${this.owner(opts.connectorType, opts.entity)}`, opts.size);
    }
    this.datasets.clear();
    this.scopes.invalidate();
  }

  mutate(type: string, entity: string, m: Mutation, scope = ''): ReturnType<Dataset['mutate']> {
    const out = this.dataset(type, entity, scope).mutate(m, (n) => Math.floor(this.mutationRng.next() * n), Math.floor(this.now() / 1000));
    this.scopes.invalidate();
    return out;
  }

  /** Every partition of an entity that exists now (config dims: from `config`, else those called so far). */
  partitions(type: string, entity: string, config?: Record<string, unknown>): ScopePartition[] {
    this.entityDef(type, entity);
    return this.scopes.partitions(type, entity, config);
  }

  /** Live records of one scope, or (scope undefined) the union over every partition. */
  records(type: string, entity: string, opts: { scope?: string; config?: Record<string, unknown> } = {}): RecordsView {
    const partitions = opts.scope === undefined ? this.partitions(type, entity, opts.config) : [{ params: {}, scope: opts.scope }];
    const data = partitions.flatMap((p) => this.dataset(type, entity, p.scope).all());
    return { count: data.length, data, partitions };
  }

  /**
   * Runs one list, api_search or (replicated) get call the way the third party would, 400s and 404s
   * included. `textOnly`: the caller only serializes the answer (server.ts), so pre-rendered records
   * may come as their JSON text.
   */
  execute(req: ExecuteRequest, opts: { textOnly?: boolean; nullCursor?: boolean } = {}): ListResponse | GetResponse {
    const kind = this.kind(req.connector_type);
    const def = this.entityDef(req.connector_type, req.entity);
    if (!def.actions.includes(req.action as never)) throw new AppError('invalid_request', `${req.entity} has no action "${req.action}"`, { path: 'action' });
    const spec = serveSpecOf(kind, def, req.action);
    checkParams(spec, req.params ?? {});
    // Served from flat names, as the catalog's read specs name them (`created.gte`).
    const params = fromWireParams(spec.params, req.params ?? {});
    checkRules(kind.key, def.name, spec.action, params);
    const scope = this.scopes.scopeOf(kind.key, spec, params);
    const ds = this.dataset(kind.key, def.name, scope);
    if (spec.action === 'get') return serveGet(def.name, ds);
    const page = serveList({ kind: kind.key, entity: def.name, spec, ds, params, textOnly: opts.textOnly === true });
    // A token the reference types `string?` may come back null on any page (FaultSpec `null_cursor`).
    if (opts.nullCursor === true && spec.paging.style === 'token') setPath(page.meta, spec.paging.from, null);
    return page;
  }
}
