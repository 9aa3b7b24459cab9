/**
 * The OpenSearch search backend (DESIGN §3, §5, §6). One index per (connector type, entity),
 * shared by all connectors of that type and routed by connector id, behind an alias:
 * `<type>__<entity>` → `<type>__<entity>__<n>`. The `db` argument of the interface is the
 * caller's Postgres connection; this backend keeps nothing in Postgres and ignores it (the
 * indexer's watermarks are keyed by the concrete index name `ensureIndex` returns, which is what
 * makes a reindex ship from version 0 into the new index).
 *
 * Reindex = create `<n+1>`, let the caller ship every record into it (its watermarks for the new
 * name start at 0), swap the alias atomically. Documents cannot be copied with `_reindex`: the
 * derived `sx` fields are not in `_source`, and they are computed in TypeScript.
 */
import type { Client } from '@opensearch-project/opensearch';
import { setTimeout as delay } from 'node:timers/promises';
import { AppError } from '../../errors.js';
import type { Db } from '../../store/db.js';
import type { BackendHit, BackendSearch, IndexChange, RejectedChange, SearchBackend } from '../backend.js';
import type { SearchTarget } from '../dsl/ast.js';
import { sortValuesOf } from '../reference/order.js';
import { chunkOps, deleteOps, judgeItems, latestChanges, ndjson, upsertOps, type BulkItem, type BulkOp } from './bulk.js';
import { compileSearchBody, ID_FIELD } from './compile.js';
import { aliasFormats, aliasIndexes, createIndex, formatOfMappings, highestGeneration, indexFormat, putMapping, resolveAlias, responseOf, searchError, swapAlias, toAppError } from './indices.js';
import { DEFAULT_LAYOUT, type IndexLayout } from './mapping.js';
import { aliasName, DOC_FORMAT, versionedIndexName } from './names.js';
import { searchTarget } from '../target.js';

export interface OpenSearchBackendOptions {
  /** A configured client (nodes, auth, TLS, timeouts): the caller builds it. */
  readonly client: Client;
  /** Prepended to alias and index names (isolated test runs, several deployments per cluster). */
  readonly prefix?: string;
  readonly layout?: IndexLayout;
  /** `refresh` of bulk requests; tests use true to read their writes at once. Default: unset (the 1 s refresh). */
  readonly refresh?: boolean | 'wait_for';
  /** Attempts after a 429 (whole request or single items) before giving up. Default 5. */
  readonly maxRetries?: number;
  /** First backoff after a 429, doubled per attempt, with jitter. Default 200 ms. */
  readonly backoffMs?: number;
  /** Injected in tests. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Largest bulk request body, in bytes; a 413 halves the request anyway. Default 5 MiB. */
  readonly maxBulkBytes?: number;
}

const DEFAULT_BULK_BYTES = 5 * 1024 * 1024;

/** How long a search trusts the alias's index it read last (about the index's refresh interval). */
const LIVE_MS = 1000;

interface RawHit {
  readonly _score?: number | null;
  readonly _source?: Record<string, unknown>;
  readonly fields?: Record<string, unknown[]>;
}

export class OpenSearchBackend implements SearchBackend {
  readonly kind = 'opensearch' as const;
  /** Changes must be shipped here: the index is a copy, not the store. */
  readonly shipsChanges = true;
  private readonly client: Client;
  private readonly prefix: string;
  private readonly layout: IndexLayout;
  private readonly opts: OpenSearchBackendOptions;
  /** Indexes whose mapping this process brought up to date (the catalog may have grown). */
  private readonly mapped = new Set<string>();
  /** Target of each index this process ensured or created (documents are derived from it). */
  private readonly targets = new Map<string, SearchTarget>();
  /** Document format of each index name this process knows (a name reused by a new index is re-read by indexIdentity). */
  private readonly formats = new Map<string, number>();
  /** The index each alias pointed to when last read, and until when searches may go to it. */
  private readonly live = new Map<string, { index: string; format: number; until: number }>();
  /** Reads of an alias under way: searches arriving meanwhile share one. */
  private readonly reading = new Map<string, Promise<{ index: string; format: number } | null>>();

  constructor(opts: OpenSearchBackendOptions) {
    this.client = opts.client;
    this.prefix = opts.prefix ?? '';
    this.layout = opts.layout ?? DEFAULT_LAYOUT;
    this.opts = opts;
  }

  async ping(): Promise<void> {
    await this.client.cluster.health({ timeout: '2s' });
  }

  /** The alias searches use. */
  aliasOf(target: SearchTarget): string {
    return aliasName(target, this.prefix);
  }

  async ensureIndex(_db: Db, target: SearchTarget): Promise<string> {
    const alias = this.aliasOf(target);
    const live = await resolveAlias(this.client, alias);
    if (live !== null) {
      if (!this.mapped.has(live)) {
        await putMapping(this.client, live, target);
        this.formats.set(live, (await indexFormat(this.client, live)) ?? DOC_FORMAT);
      }
      this.remember(live, target);
      return live;
    }
    // Concurrent first callers both create generation 1 (the loser's create is a no-op) and both
    // add the same alias to it (idempotent).
    const index = versionedIndexName(target, 1, this.prefix);
    await createIndex(this.client, index, target, this.layout);
    await swapAlias(this.client, alias, [], index);
    this.remember(index, target);
    // Its format is not assumed: a lost creation race leaves the winner's index (formatOf reads it).
    this.formats.delete(index);
    return index;
  }

  /** The index's `settings.index.uuid`, read each time: the name may stand for a new index since the last call. */
  async indexIdentity(index: string): Promise<string> {
    let uuid: unknown;
    try {
      const res = await this.client.indices.get({ index });
      const found = (res.body as Record<string, { settings?: { index?: { uuid?: unknown } }; mappings?: unknown }>)[index];
      uuid = found?.settings?.index?.uuid;
      if (found !== undefined) this.formats.set(index, formatOfMappings(found.mappings));
    } catch (e) {
      throw toAppError(e, 'reading the index', `index ${index}`);
    }
    if (typeof uuid !== 'string') throw new AppError('internal', `OpenSearch reported no uuid for index ${index}`);
    return uuid;
  }

  liveIndex(_db: Db, target: SearchTarget): Promise<string | null> {
    return resolveAlias(this.client, this.aliasOf(target));
  }

  async apply(_db: Db, indexName: string, connectorId: string, changes: readonly IndexChange[]): Promise<readonly RejectedChange[]> {
    const target = this.targetOf(indexName, changes);
    const latest = latestChanges(changes);
    const rejected = target === null ? [] : await this.sendBulk(upsertOps(target, indexName, connectorId, latest, await this.formatOf(indexName)));
    // A refused upsert would leave the record's previous version searchable, stale: delete it at
    // the refused version, so the record is missing (and reported) rather than wrong.
    const gone = rejected.map((r): IndexChange => ({ recordId: r.recordId, version: r.version, doc: null }));
    return [...rejected, ...(await this.sendBulk(deleteOps(indexName, connectorId, [...latest, ...gone])))];
  }

  /**
   * Searches the index the alias points to, compiled for that index's document format. The
   * alias is read at most once per LIVE_MS: after a swap, searches may answer from the previous
   * index (whole, in its own format) for that long; one deleted meanwhile is read again at once.
   */
  async search(_db: Db, req: BackendSearch): Promise<BackendHit[]> {
    const alias = this.aliasOf(req.target);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const live = await this.liveOf(alias, attempt > 0);
      if (live === null) return []; // nothing shipped yet: no index behind the alias
      const { body, routing } = compileSearchBody(req.target, req, live.format);
      let res;
      try {
        res = await this.client.search({ index: live.index, routing, body: body as never }, { ignore: [404] });
      } catch (e) {
        throw searchError(e);
      }
      if (res.statusCode !== 404) return this.hitsOf(req, res.body.hits?.hits as RawHit[] | undefined);
      this.live.delete(alias);
    }
    return [];
  }

  private hitsOf(req: BackendSearch, raw: readonly RawHit[] | undefined): BackendHit[] {
    return (raw ?? []).map((h) => {
      const hit = { id: String(h.fields?.[ID_FIELD]?.[0]), score: req.query.scored ? Number(h._score ?? 0) : 1, doc: h._source ?? {} };
      return { ...hit, sortValues: sortValuesOf(req.query.sort, hit) };
    });
  }

  /**
   * Rebuilds the index of a target: creates the next generation, awaits `ship(index)` (the
   * caller ships every record from version 0 with `apply(db, index, ...)`, its watermarks keyed
   * by the new name), then swaps the alias atomically. The previous index is kept unless
   * `dropOld` (a writer still holding its name would otherwise re-create it with a dynamic
   * mapping on its next bulk request). Returns the new index.
   */
  async reindex(target: SearchTarget, ship: (index: string) => Promise<void>, opts: { dropOld?: boolean } = {}): Promise<string> {
    const alias = this.aliasOf(target);
    const next = versionedIndexName(target, (await highestGeneration(this.client, alias)) + 1, this.prefix);
    await createIndex(this.client, next, target, this.layout);
    this.remember(next, target);
    this.formats.set(next, DOC_FORMAT);
    await ship(next);
    // What was shipped becomes searchable before the alias points at it; otherwise searches
    // answer with nothing until the next periodic refresh (seen on a real engine: 0 hits).
    await this.client.indices.refresh({ index: next }).catch((e: unknown) => Promise.reject(toAppError(e, 'refreshing the new index', `index ${next}`)));
    // Read just before the swap: a first ensureIndex may have created and aliased generation 1
    // while this was shipping, and the alias must leave every other index.
    const previous = (await aliasIndexes(this.client, alias)).filter((i) => i !== next);
    await swapAlias(this.client, alias, previous, next);
    this.live.delete(alias);
    if (opts.dropOld === true) {
      for (const old of previous) await this.client.indices.delete({ index: old }).catch((e: unknown) => Promise.reject(toAppError(e, 'deleting an old index', `index ${old}`)));
    }
    return next;
  }

  /** The index an alias points to and its format, read again once LIVE_MS passed (or when `fresh`). */
  private async liveOf(alias: string, fresh: boolean): Promise<{ index: string; format: number } | null> {
    const known = this.live.get(alias);
    if (!fresh && known !== undefined && known.until > Date.now()) return known;
    const under = this.reading.get(alias);
    if (under !== undefined && !fresh) return under;
    const read = this.readLive(alias).finally(() => this.reading.delete(alias));
    this.reading.set(alias, read);
    return read;
  }

  private async readLive(alias: string): Promise<{ index: string; format: number } | null> {
    // An alias points to one index (swaps are atomic and remove every other); should two ever show, the newest wins.
    const [found] = await aliasFormats(this.client, alias);
    if (found === undefined) return null;
    this.formats.set(found.index, found.format);
    const live = { ...found, until: Date.now() + LIVE_MS };
    this.live.set(alias, live);
    return live;
  }

  /** The document format of an index, read once per name (indexIdentity re-reads it); a missing index gets the current one. */
  private async formatOf(index: string): Promise<number> {
    const known = this.formats.get(index);
    if (known !== undefined) return known;
    const format = await indexFormat(this.client, index);
    if (format === null) return DOC_FORMAT;
    this.formats.set(index, format);
    return format;
  }

  private remember(index: string, target: SearchTarget): void {
    this.mapped.add(index);
    this.targets.set(index, target);
  }

  /**
   * The target whose documents an index holds: the one `ensureIndex`/`reindex` saw, else the
   * catalog's, read from the name `<prefix><type>__<entity>__<n>` (catalog keys never hold `__`).
   */
  private targetOf(indexName: string, changes: readonly IndexChange[]): SearchTarget | null {
    if (changes.every((c) => c.doc === null)) return null;
    const known = this.targets.get(indexName);
    if (known !== undefined) return known;
    const [type, entity, generation] = indexName.slice(this.prefix.length).split('__');
    if (!indexName.startsWith(this.prefix) || type === undefined || entity === undefined || generation === undefined) {
      throw new AppError('internal', `"${indexName}" is not an index of this OpenSearch backend`);
    }
    return searchTarget(type, entity);
  }

  /** Sends operations in bulk requests of bounded size; returns the documents refused. */
  private async sendBulk(ops: readonly BulkOp[]): Promise<RejectedChange[]> {
    const rejected: RejectedChange[] = [];
    for (const chunk of chunkOps(ops, this.opts.maxBulkBytes ?? DEFAULT_BULK_BYTES)) rejected.push(...(await this.sendChunk(chunk)));
    return rejected;
  }

  /**
   * Sends one bulk request, retrying 429s (whole request or single items) with backoff. A 413
   * (body over the cluster's limit, which may be lower than ours) halves the request; a single
   * document over the limit is rejected like a document the index cannot map.
   */
  private async sendChunk(ops: readonly BulkOp[]): Promise<RejectedChange[]> {
    const rejected: RejectedChange[] = [];
    let pending = ops;
    const maxRetries = this.opts.maxRetries ?? 5;
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      let items: BulkItem[];
      try {
        const refresh = this.opts.refresh === undefined ? {} : { refresh: this.opts.refresh };
        // The body is our own NDJSON string (versions as digits); the client sends strings as is.
        const res = await this.client.bulk({ body: ndjson(pending) as never, ...refresh });
        items = (res.body.items ?? []).map((it) => Object.values(it)[0] as BulkItem);
      } catch (e) {
        if (responseOf(e).status === 413) return [...rejected, ...(await this.splitTooLarge(pending))];
        if (responseOf(e).status !== 429 || attempt >= maxRetries) throw toAppError(e, 'a bulk request');
        await this.backoff(attempt);
        continue;
      }
      const verdict = judgeItems(items, pending);
      if (verdict.failure !== null) throw verdict.failure;
      rejected.push(...verdict.rejected);
      if (verdict.retry.length > 0 && attempt >= maxRetries) {
        throw new AppError('rate_limited', `OpenSearch kept refusing ${verdict.retry.length} bulk items with 429`, { retryable: true, upstreamStatus: 429 });
      }
      pending = verdict.retry.map((i) => pending[i] as BulkOp);
      if (pending.length > 0) await this.backoff(attempt);
    }
    return rejected;
  }

  private async splitTooLarge(ops: readonly BulkOp[]): Promise<RejectedChange[]> {
    const [only] = ops;
    if (ops.length === 1 && only !== undefined) {
      return [{ recordId: only.recordId, version: only.version, reason: 'document larger than OpenSearch accepts in one request (413)' }];
    }
    const half = Math.ceil(ops.length / 2);
    return [...(await this.sendChunk(ops.slice(0, half))), ...(await this.sendChunk(ops.slice(half)))];
  }

  private backoff(attempt: number): Promise<void> {
    const ms = (this.opts.backoffMs ?? 200) * 2 ** attempt * (0.5 + Math.random() / 2);
    return (this.opts.sleep ?? ((t: number) => delay(t)))(ms);
  }
}
