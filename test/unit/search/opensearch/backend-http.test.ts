/**
 * The OpenSearch backend against a recording HTTP server (fake-http.ts): the requests the real
 * client sends (bulk NDJSON, versions, routing, index admin, search) and how replies are judged.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../../src/errors.js';
import type { Db } from '../../../../src/store/db.js';
import type { IndexChange } from '../../../../src/search/backend.js';
import { compileSearchBody } from '../../../../src/search/opensearch/compile.js';
import { indexMappings, indexSettings } from '../../../../src/search/opensearch/mapping.js';
import { OpenSearchBackend } from '../../../../src/search/opensearch/opensearch-backend.js';
import { DOC_FORMAT, WORD_TAG_LENGTH, wordTag } from '../../../../src/search/opensearch/names.js';
import { customers, parse } from '../fixtures.js';
import { fakeOpenSearch, ndjsonLines, type FakeOpenSearch } from './fake-http.js';

/** The OpenSearch backend keeps nothing in Postgres: it never touches the handle. */
const db = undefined as unknown as Db;
const CONN = 'conn-1';
const INDEX = 'payments__customers__1';

let os: FakeOpenSearch;
let sleeps: number[];
let backend: OpenSearchBackend;

beforeEach(async () => {
  os = await fakeOpenSearch();
  sleeps = [];
  backend = new OpenSearchBackend({ client: os.client, backoffMs: 100, maxRetries: 2, sleep: async (ms) => void sleeps.push(ms) });
});
afterEach(() => os.close());

const ok = (op: 'index' | 'delete', status = 201, result = 'created') => ({ [op]: { _index: INDEX, status, result } });
const bulkReply = (items: object[]) => ({ status: 200, body: { took: 1, errors: items.some((i) => Object.values(i)[0].status >= 300), items } });
const aliasReply = { status: 200, body: { [INDEX]: { aliases: { payments__customers: {} } } } };
/** GET <index>/_mapping of an index in document `format` (1: made before formats were recorded, no `_meta`). */
const mappingReply = (format: number, index = INDEX) => ({ status: 200, body: { [index]: { mappings: format === 1 ? {} : { _meta: { sx_format: format } } } } });

/** ensureIndex against an existing alias: GET alias, then PUT mapping and GET its format (once per process). */
async function ensureExisting(format = DOC_FORMAT): Promise<void> {
  os.replies.push(aliasReply, { status: 200, body: { acknowledged: true } }, mappingReply(format));
  expect(await backend.ensureIndex(db, customers)).toBe(INDEX);
  os.requests.length = 0;
}

const change = (recordId: string, version: string, doc: Record<string, unknown> | null): IndexChange => ({ recordId, version, doc });

describe('apply', () => {
  it('upserts then deletes, in separate bulk requests, external versions verbatim, routed by connector', async () => {
    await ensureExisting();
    os.replies.push(bulkReply([ok('index')]), bulkReply([ok('delete', 200, 'deleted')]));
    await backend.apply(db, INDEX, CONN, [
      change('cus_1', '5', { name: 'Old' }),
      change('cus_2', '6', null),
      change('cus_1', '9007199254740993', { name: 'Ann', age: 3 }),
    ]);
    expect(os.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /_bulk', 'POST /_bulk']);
    const [upserts, deletes] = os.requests;
    // The version is a bigint beyond 2^53: written as digits, never through a JS number.
    expect(upserts?.body.split('\n')[0]).toBe(
      '{"index":{"_index":"payments__customers__1","_id":"conn-1:cus_1","routing":"conn-1","version":9007199254740993,"version_type":"external"}}',
    );
    const [, source] = ndjsonLines(upserts?.body ?? '') as [unknown, Record<string, any>];
    expect(source.name).toBe('Ann');
    expect(source.age).toBe(3);
    expect(source.sx).toMatchObject({ c: CONN, id: 'cus_1', v: '9007199254740993', f: { name: { s: ['Ann'] }, age: { n: [3] } } });
    expect(ndjsonLines(deletes?.body ?? '')).toEqual([
      { delete: { _index: INDEX, _id: 'conn-1:cus_2', routing: CONN, version: 6, version_type: 'external' } },
    ]);
    expect(upserts?.query).toEqual({});
  });

  it("derives documents in the index's own format: words behind the connector's tag, or as they are in an index made before formats", async () => {
    const words = async (format: number) => {
      const fresh = new OpenSearchBackend({ client: os.client });
      os.requests.length = 0;
      os.replies.push(aliasReply, { status: 200, body: { acknowledged: true } }, mappingReply(format), bulkReply([ok('index')]));
      await fresh.ensureIndex(db, customers);
      await fresh.apply(db, INDEX, CONN, [change('cus_1', '1', { name: 'Ada Lovelace' })]);
      const [, source] = ndjsonLines(os.requests[3]?.body ?? '') as [unknown, Record<string, any>];
      return source.sx.f.name.w as string[];
    };
    expect(await words(1)).toEqual(['ada', 'lovelace']);
    const tag = wordTag(DOC_FORMAT, CONN);
    expect(tag).toHaveLength(WORD_TAG_LENGTH);
    expect(await words(DOC_FORMAT)).toEqual([`${tag}ada`, `${tag}lovelace`]);
  });

  it('keeps only the newest change of a record: a later tombstone wins over an earlier upsert', async () => {
    await ensureExisting();
    os.replies.push(bulkReply([ok('delete', 200, 'deleted')]));
    await backend.apply(db, INDEX, CONN, [change('a', '1', { name: 'x' }), change('a', '2', null)]);
    expect(os.requests).toHaveLength(1);
    expect(ndjsonLines(os.requests[0]?.body ?? '')).toEqual([{ delete: { _index: INDEX, _id: 'conn-1:a', routing: CONN, version: 2, version_type: 'external' } }]);
  });

  it('version conflicts (a newer version is there) and deletes of absent documents are fine', async () => {
    await ensureExisting();
    os.replies.push(
      bulkReply([{ index: { status: 409, error: { type: 'version_conflict_engine_exception', reason: 'current version [9] is higher' } } }]),
      bulkReply([{ delete: { status: 404, result: 'not_found' } }]),
    );
    await expect(backend.apply(db, INDEX, CONN, [change('a', '3', { name: 'x' }), change('b', '4', null)])).resolves.toEqual([]);
  });

  it('retries only the items refused with 429, after a backoff', async () => {
    await ensureExisting();
    os.replies.push(
      bulkReply([ok('index'), { index: { status: 429, error: { type: 'es_rejected_execution_exception', reason: 'queue full' } } }]),
      bulkReply([ok('index')]),
    );
    await backend.apply(db, INDEX, CONN, [change('a', '1', { name: 'x' }), change('b', '2', { name: 'y' })]);
    expect(os.requests).toHaveLength(2);
    expect((ndjsonLines(os.requests[1]?.body ?? '')[0] as any).index._id).toBe('conn-1:b');
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(50);
    expect(sleeps[0]).toBeLessThanOrEqual(100);
  });

  it('retries a request refused with HTTP 429, then gives up with a retryable rate_limited error', async () => {
    await ensureExisting();
    const busy = { status: 429, body: { error: { type: 'circuit_breaking_exception', reason: 'too many requests' }, status: 429 } };
    os.replies.push(busy, busy, busy);
    const err = await backend.apply(db, INDEX, CONN, [change('a', '1', { name: 'x' })]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'rate_limited', retryable: true });
    expect(os.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[1] as number).toBeGreaterThanOrEqual(100); // doubled
  });

  it('a document the index cannot map is rejected and reported while the rest of its batch lands; a 5xx item fails the batch retryably', async () => {
    await ensureExisting();
    os.replies.push(bulkReply([ok('index'), { index: { status: 400, error: { type: 'mapper_parsing_exception', reason: 'failed to parse' } } }]), bulkReply([ok('delete', 200, 'deleted')]));
    const rejected = await backend.apply(db, INDEX, CONN, [change('cus_6', '1', { name: 'x' }), change('cus_7', '2', { name: 'y' })]);
    expect(rejected).toEqual([{ recordId: 'cus_7', version: '2', reason: 'mapper_parsing_exception: failed to parse' }]);
    // Refused for its content: never retried; its previous (stale) version is deleted at the refused version.
    expect(os.requests).toHaveLength(2);
    expect(os.requests[1]?.body).toBe('{"delete":{"_index":"payments__customers__1","_id":"conn-1:cus_7","routing":"conn-1","version":2,"version_type":"external"}}\n');
    // A 400 that is the index's (closed, or a strict mapping not extended yet) fails the batch even for one document.
    os.requests.length = 0;
    os.replies.push(bulkReply([{ index: { status: 400, error: { type: 'index_closed_exception', reason: 'closed' } } }]));
    await expect(backend.apply(db, INDEX, CONN, [change('cus_9', '3', { name: 'w' })])).rejects.toMatchObject({ code: 'internal', upstreamStatus: 400 });
    // Most of a large request refused points at the index, not the documents: the batch fails.
    const many = Array.from({ length: 12 }, (_, i) => change(`cus_${i}`, String(i + 1), { name: 'z' }));
    os.replies.push(bulkReply(many.map(() => ({ index: { status: 400, error: { type: 'mapper_parsing_exception', reason: 'failed to parse' } } }))));
    const bad = await backend.apply(db, INDEX, CONN, many).catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: 'internal', retryable: false, upstreamStatus: 400 });
    expect((bad as Error).message).toContain('12 of 12');
    expect((bad as Error).message).toContain('mapper_parsing_exception');
    os.replies.push(bulkReply([{ delete: { status: 503, error: { type: 'unavailable_shards_exception', reason: 'primary shard is not active' } } }]));
    const down = await backend.apply(db, INDEX, CONN, [change('cus_8', '2', null)]).catch((e: unknown) => e);
    expect(down).toMatchObject({ code: 'unavailable', retryable: true, upstreamStatus: 503 });
  });

  it('splits a batch into bulk requests under the byte limit, and halves one the cluster refuses with 413', async () => {
    const small = new OpenSearchBackend({ client: os.client, maxBulkBytes: 3600 });
    const docs = Array.from({ length: 6 }, (_, i) => change(`cus_${i}`, String(i + 1), { name: 'x'.repeat(300) }));
    const tooLarge = { status: 413, body: { error: { type: 'content_too_long_exception', reason: 'Request size exceeded' }, status: 413 } };
    // Three requests of two documents each; the cluster refuses the first, which goes again as two.
    os.replies.push(mappingReply(DOC_FORMAT), tooLarge, bulkReply([ok('index')]), bulkReply([ok('index')]), bulkReply([ok('index'), ok('index')]), bulkReply([ok('index'), ok('index')]));
    await small.apply(db, INDEX, CONN, docs);
    expect(os.requests.shift()?.path).toBe(`/${INDEX}/_mapping`);
    const sent = os.requests.map((r) => ndjsonLines(r.body).filter((_, i) => i % 2 === 0).map((l) => (l as { index: { _id: string } }).index._id));
    expect(sent).toEqual([['conn-1:cus_0', 'conn-1:cus_1'], ['conn-1:cus_0'], ['conn-1:cus_1'], ['conn-1:cus_2', 'conn-1:cus_3'], ['conn-1:cus_4', 'conn-1:cus_5']]);
    expect(os.requests.every((r) => Buffer.byteLength(r.body) <= 3600)).toBe(true);
    os.requests.length = 0;
    os.replies.push(tooLarge, bulkReply([ok('delete', 200, 'deleted')]));
    expect(await small.apply(db, INDEX, CONN, [change('cus_big', '9', { name: 'y' })])).toEqual([{ recordId: 'cus_big', version: '9', reason: expect.stringContaining('413') }]);
    expect(os.requests.map((r) => r.body.slice(0, 10))).toEqual(['{"index":{', '{"delete":']);
  });

  it('refuses a version that is not a 64-bit integer before sending anything', async () => {
    await ensureExisting();
    await expect(backend.apply(db, INDEX, CONN, [change('a', '9223372036854775808', { name: 'x' })])).rejects.toMatchObject({ code: 'internal' });
    await expect(backend.apply(db, INDEX, CONN, [change('a', '1e3', null)])).rejects.toMatchObject({ code: 'internal' });
    expect(os.requests).toHaveLength(0);
  });

  it('knows the target of a catalog index it has not ensured from the index name', async () => {
    os.replies.push(mappingReply(DOC_FORMAT), bulkReply([ok('index')]));
    await backend.apply(db, INDEX, CONN, [change('cus_1', '1', { email: 'a@b.c', balance: 5 })]);
    expect(os.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /${INDEX}/_mapping`, 'POST /_bulk']);
    const [, source] = ndjsonLines(os.requests[1]?.body ?? '') as [unknown, Record<string, any>];
    expect(source.sx.f).toEqual({ email: expect.objectContaining({ s: ['a@b.c'] }), balance: { p: true, n: [5], o: expect.any(String) } });
    await expect(backend.apply(db, 'elsewhere', CONN, [change('x', '1', {})])).rejects.toMatchObject({ code: 'internal' });
  });
});

describe('index administration', () => {
  it('ensureIndex creates generation 1 with settings and mappings, then points the alias at it', async () => {
    os.replies.push({ status: 404, body: { error: 'alias [payments__customers] missing', status: 404 } }, { status: 200, body: { acknowledged: true } }, { status: 200, body: { acknowledged: true } });
    expect(await backend.ensureIndex(db, customers)).toBe(INDEX);
    expect(os.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /_alias/payments__customers', `PUT /${INDEX}`, 'POST /_aliases']);
    expect(JSON.parse(os.requests[1]?.body ?? '')).toEqual({ settings: indexSettings(customers), mappings: indexMappings(customers) });
    expect(JSON.parse(os.requests[2]?.body ?? '')).toEqual({ actions: [{ add: { index: INDEX, alias: 'payments__customers' } }] });
  });

  it("reads an index's identity (its uuid) fresh each time, since a name can come to stand for a new index", async () => {
    os.replies.push({ status: 200, body: { [INDEX]: { settings: { index: { uuid: 'u-1' } } } } }, { status: 200, body: { [INDEX]: { settings: { index: { uuid: 'u-2' } } } } });
    expect(await backend.indexIdentity(INDEX)).toBe('u-1');
    expect(await backend.indexIdentity(INDEX)).toBe('u-2');
    expect(os.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /${INDEX}`, `GET /${INDEX}`]);
  });

  it('a failure of index administration names no index or alias in its message (tenants read it as last_error); the detail does', async () => {
    os.replies.push({ status: 503, body: { error: { type: 'cluster_block_exception', reason: 'blocked' }, status: 503 } });
    const down = (await backend.ensureIndex(db, customers).catch((e: unknown) => e)) as AppError;
    expect(down).toMatchObject({ code: 'unavailable', retryable: true, message: 'OpenSearch is unavailable (resolving the index alias); try again' });
    expect(down.message).not.toContain('payments__customers');
    expect(down.detail).toContain('alias payments__customers');
    os.replies.push({ status: 429, body: { error: { type: 'es_rejected_execution_exception', reason: 'queue full' }, status: 429 } });
    // A 429 says when to come back, so the API's answer carries Retry-After.
    expect(await backend.ensureIndex(db, customers).catch((e: unknown) => e)).toMatchObject({ code: 'rate_limited', retryAfterSec: 1 });
  });

  it('a concurrent creator winning the race is fine', async () => {
    os.replies.push(
      { status: 404, body: { error: 'alias missing', status: 404 } },
      { status: 400, body: { error: { type: 'resource_already_exists_exception', reason: 'index exists' }, status: 400 } },
      { status: 200, body: { acknowledged: true } },
    );
    expect(await backend.ensureIndex(db, customers)).toBe(INDEX);
  });

  it('an existing alias: its index, with the mapping brought up to date and its format read once per process', async () => {
    os.replies.push(aliasReply, { status: 200, body: { acknowledged: true } }, mappingReply(DOC_FORMAT), aliasReply);
    expect(await backend.ensureIndex(db, customers)).toBe(INDEX);
    expect(await backend.ensureIndex(db, customers)).toBe(INDEX);
    expect(os.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /_alias/payments__customers', `POST /${INDEX}/_mapping`, `GET /${INDEX}/_mapping`, 'GET /_alias/payments__customers']);
    expect(JSON.parse(os.requests[1]?.body ?? '')).toEqual({ properties: (indexMappings(customers) as any).properties });
    os.replies.push({ status: 404, body: { error: 'alias missing', status: 404 } });
    expect(await backend.liveIndex(db, customers)).toBeNull();
  });

  it('reindex: next generation, the caller ships into it, refresh, then one atomic alias swap off every index the alias has then', async () => {
    os.replies.push(
      { status: 200, body: { [INDEX]: {}, 'payments__customers__2': {} } },
      { status: 200, body: { acknowledged: true } },
      { status: 200, body: { _shards: { total: 1, successful: 1, failed: 0 } } },
      // Meanwhile another process pointed the alias at generation 2 as well.
      { status: 200, body: { [INDEX]: { aliases: { payments__customers: {} } }, payments__customers__2: { aliases: { payments__customers: {} } } } },
      { status: 200, body: { acknowledged: true } },
    );
    const shipped: string[] = [];
    const next = await backend.reindex(customers, async (index) => void shipped.push(index));
    expect(next).toBe('payments__customers__3');
    expect(shipped).toEqual(['payments__customers__3']);
    expect(os.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /payments__customers__*',
      'PUT /payments__customers__3',
      // What was shipped is searchable before the alias points at it.
      'GET /payments__customers__3/_refresh',
      'GET /_alias/payments__customers',
      'POST /_aliases',
    ]);
    expect(JSON.parse(os.requests[4]?.body ?? '')).toEqual({
      actions: [
        { remove: { index: 'payments__customers__2', alias: 'payments__customers' } },
        { remove: { index: INDEX, alias: 'payments__customers' } },
        { add: { index: 'payments__customers__3', alias: 'payments__customers' } },
      ],
    });
  });
});

describe('search', () => {
  const query = parse({ query: { filter: { keyword: { name: 'ann' } }, sort: [{ age: 'desc' }] }, limit: 2 });
  const req = { target: customers, connectorId: CONN, query, after: null, size: 3 };
  /** The alias's index and its format, read in one request (the alias's mappings) before a search, then trusted for a second. */
  const live = (format = DOC_FORMAT) => os.replies.push(mappingReply(format));
  const READ_ALIAS = 'GET /payments__customers/_mapping';

  it("sends the body compiled for the alias's index and its format to that index, with the connector routing; maps hits with reference sort values", async () => {
    live();
    os.replies.push({
      status: 200,
      body: {
        took: 1,
        hits: {
          hits: [
            { _id: 'conn-1:b', _score: 2, _source: { name: 'Ann Ann', age: 40 }, fields: { 'sx.id': ['b'] }, sort: ['x', 'b'] },
            { _id: 'conn-1:a', _score: 1, _source: { name: 'ann' }, fields: { 'sx.id': ['a'] }, sort: ['0', 'a'] },
          ],
        },
      },
    });
    const hits = await backend.search(db, req);
    expect(os.requests.map((r) => `${r.method} ${r.path}`)).toEqual([READ_ALIAS, `POST /${INDEX}/_search`]);
    expect(os.requests[1]?.query).toEqual({ routing: CONN });
    expect(JSON.parse(os.requests[1]?.body ?? '')).toEqual(compileSearchBody(customers, req, DOC_FORMAT).body);
    expect(hits).toEqual([
      { id: 'b', score: 2, doc: { name: 'Ann Ann', age: 40 }, sortValues: [40, 'b'] },
      { id: 'a', score: 1, doc: { name: 'ann' }, sortValues: [null, 'a'] },
    ]);
  });

  it('no index yet: no hits', async () => {
    os.replies.push({ status: 404, body: { error: { type: 'index_not_found_exception', reason: 'no such index [payments__customers]' }, status: 404 } });
    expect(await backend.search(db, req)).toEqual([]);
    expect(os.requests.map((r) => `${r.method} ${r.path}`)).toEqual([READ_ALIAS]);
  });

  it('an index that merely bears the alias name is not searched: only generations of the alias count', async () => {
    os.replies.push({ status: 200, body: { payments__customers: { mappings: { properties: { name: { type: 'text' } } } } } });
    expect(await backend.search(db, req)).toEqual([]);
    expect(os.requests.map((r) => `${r.method} ${r.path}`)).toEqual([READ_ALIAS]);
  });

  it('an index made before formats were recorded gets untagged words; the alias is trusted for a second, and read again when its index is gone', async () => {
    const empty = { status: 200, body: { hits: { hits: [] } } };
    live(1);
    os.replies.push(empty, empty);
    await backend.search(db, req);
    await backend.search(db, req);
    expect(JSON.parse(os.requests[1]?.body ?? '')).toEqual(compileSearchBody(customers, req, 1).body);
    expect(os.requests[1]?.body).toContain('"sx.f.name.w":"ann"');
    expect(os.requests[2]?.path).toBe(`/${INDEX}/_search`);
    // Deleted since (a reindex with dropOld): the alias now points at generation 2, in format 2.
    const next = 'payments__customers__2';
    os.replies.push({ status: 404, body: { error: { type: 'index_not_found_exception', reason: 'no such index' }, status: 404 } });
    os.replies.push(mappingReply(DOC_FORMAT, next), empty);
    expect(await backend.search(db, req)).toEqual([]);
    expect(os.requests.slice(3).map((r) => `${r.method} ${r.path}`)).toEqual([`POST /${INDEX}/_search`, READ_ALIAS, `POST /${next}/_search`]);
    expect(JSON.parse(os.requests[5]?.body ?? '')).toEqual(compileSearchBody(customers, req, DOC_FORMAT).body);
  });

  it('searches arriving together share one read of the alias', async () => {
    live();
    const empty = { status: 200, body: { hits: { hits: [] } } };
    os.replies.push(empty, empty, empty);
    await Promise.all([backend.search(db, req), backend.search(db, req), backend.search(db, req)]);
    expect(os.requests.map((r) => `${r.method} ${r.path}`)).toEqual([READ_ALIAS, ...Array(3).fill(`POST /${INDEX}/_search`)]);
  });

  it('an unscored query reports score 1 for every hit', async () => {
    live();
    os.replies.push({ status: 200, body: { hits: { hits: [{ _score: null, _source: {}, fields: { 'sx.id': ['z'] } }] } } });
    const plain = parse({ query: { filter: { eq: { name: 'x' } } } });
    expect(await backend.search(db, { ...req, query: plain })).toEqual([{ id: 'z', score: 1, doc: {}, sortValues: ['z'] }]);
  });

  it('a query beyond a Lucene limit (wildcard automaton, clause count) is invalid_query, not a server fault', async () => {
    live();
    os.replies.push({
      status: 400,
      body: { error: { type: 'search_phase_execution_exception', root_cause: [{ type: 'too_complex_to_determinize_exception', reason: 'too many states' }] }, status: 400 },
    });
    await expect(backend.search(db, req)).rejects.toMatchObject({ code: 'invalid_query', retryable: false });
  });

  it('a cluster failure is a retryable unavailable error whose message names no cluster internals (they are in its detail)', async () => {
    live();
    os.replies.push({ status: 503, body: { error: { type: 'search_phase_execution_exception', reason: 'all shards of [idx_internal_7] failed' }, status: 503 } });
    const err = (await backend.search(db, req).catch((e: unknown) => e)) as AppError;
    expect(err).toMatchObject({ code: 'unavailable', retryable: true, message: 'OpenSearch is unavailable (a search); try again' });
    expect(err.detail).toContain('idx_internal_7');
  });
});
