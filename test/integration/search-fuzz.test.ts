import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSyncedHarness, type Harness } from './helpers/harness.js';
import { realOpenSearch } from './helpers/real-opensearch.js';

const OPS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'like', 'fuzzy', 'keyword', 'contains', 'any', 'not', 'and', 'or', 'nope', ''];
const PATHS = ['email', 'name', 'balance', 'created', 'address', 'address.city', 'metadata.plan', 'preferred_locales', 'delinquent', 'nope', '', '.', 'a..b', '__proto__', 'constructor', 'email.x'];
const json = fc.jsonValue({ maxDepth: 3 });

/** Filters that are mostly wrong in one place: unknown ops/paths, wrong types, bad nesting. */
const filter: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  f: fc.oneof(
    { depthSize: 'small' },
    json,
    fc.tuple(fc.constantFrom(...OPS), fc.constantFrom(...PATHS), json).map(([op, p, v]) => ({ [op]: { [p]: v } })),
    fc.tuple(fc.constantFrom(...OPS), json).map(([op, v]) => ({ [op]: v })),
    fc.tuple(fc.constantFrom('and', 'or'), fc.array(tie('f'), { maxLength: 3 })).map(([op, xs]) => ({ [op]: xs })),
    tie('f').map((x) => ({ not: x })),
    fc.tuple(fc.constantFrom(...PATHS), tie('f')).map(([p, x]) => ({ any: { [p]: x } })),
    fc.string({ maxLength: 2000 }).map((s) => ({ like: { email: s } })),
  ),
})).f;

const params = fc.oneof(
  json,
  fc.record({ query: fc.oneof(json, fc.record({ filter, sort: fc.oneof(json, fc.array(fc.dictionary(fc.constantFrom(...PATHS), fc.oneof(json, fc.constantFrom('asc', 'desc'))), { maxLength: 10 })) }, { requiredKeys: [] })), limit: json, cursor: json, fields: json, extra: json }, { requiredKeys: [] }),
);

const backends: ('postgres' | 'opensearch')[] = ['postgres'];
if (realOpenSearch('HTTP search fuzzing on OpenSearch') !== null) backends.push('opensearch');

describe.each(backends)('fuzzing search params through the HTTP endpoint (%s)', (search) => {
  let h: Harness;
  let token: string;
  let id: string;
  beforeAll(async () => {
    // Records to search: valid requests reach the backend with data behind them.
    ({ h, id } = await startSyncedHarness(undefined, search));
    token = await h.token();
  });
  afterAll(async () => h?.close());

  it('answers 3,000 random malformed requests with 400 + code + path, never 5xx', async () => {
    let n = 0;
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(params, async (p) => {
        const res = await h.app.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${id}/execute`, headers: { authorization: `Bearer ${token}` }, payload: { entity: 'customers', action: 'search', params: p } });
        n++;
        expect([200, 400], `${res.statusCode} ${res.body} for ${JSON.stringify(p)}`).toContain(res.statusCode);
        if (res.statusCode === 400) {
          rejected++;
          const err = (res.json() as { error: { code: string; message: string; path?: string } }).error;
          expect(['invalid_query', 'unknown_field', 'type_mismatch', 'invalid_cursor', 'invalid_request']).toContain(err.code);
          expect(typeof err.path, JSON.stringify(err)).toBe('string');
          expect(err.message.length).toBeGreaterThan(5);
          expect(res.body).not.toMatch(/at .*\.ts:\d+/);
        }
      }),
      { numRuns: 3000, seed: Number(process.env.PROPERTY_SEED ?? Date.now() % 2 ** 31) },
    );
    expect(n).toBe(3000);
    expect(rejected).toBeGreaterThan(2500);
  });

  it.each(['', '?trace=1'])('rejects a body over 1 MiB with invalid_query (query string %j)', async (qs) => {
    const big = 'x'.repeat(1024 * 1024 + 10);
    const res = await h.app.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${id}/execute${qs}`, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: `{"entity":"customers","action":"search","params":{"query":{"filter":{"eq":{"email":"${big}"}}}}}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'invalid_query', message: 'request body exceeds 1 MiB' } });
  });

  it('rejects malformed JSON with invalid_request', async () => {
    const res = await h.app.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${id}/execute`, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: '{"entity": "customers", ' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'invalid_request', message: expect.stringContaining('not valid JSON') } });
  });

  it('says what is wrong with a body that is not JSON for another reason', async () => {
    const url = `/api/v1/integrations/connectors/${id}/execute`;
    const noType = await h.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}`, 'content-length': '2' }, payload: '{}' });
    expect(noType.statusCode).toBe(400);
    expect(noType.json()).toMatchObject({ error: { code: 'invalid_request', message: expect.stringContaining('Content-Type') } });
    expect(noType.body).not.toContain('not valid JSON');
  });
});
