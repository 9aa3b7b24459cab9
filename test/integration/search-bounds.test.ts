/**
 * Filters at the contract's bounds (DESIGN §6: 500 nodes, `in` lists of 1,000 values, strings of
 * 1,024 characters, a 1 MiB body) never fail for a reason of the backend. Postgres runs every one
 * (fuzzy and keyword terms bind as one array each, long `in` lists as one array); OpenSearch runs
 * them or, past its 1,024-clause limit, answers 400 invalid_query at query.filter naming the limit
 * (search-decisions 37), never a 5xx. PROPERTY_SEED=n replays one run.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSyncedHarness, type Harness } from './helpers/harness.js';
import { realOpenSearch } from './helpers/real-opensearch.js';

const MAX_BODY = 1024 * 1024;
const word = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzäöü0123456789'), minLength: 1, maxLength: 9 });
/** A text of up to 1,024 characters of mostly distinct words (hundreds of terms). */
const longText = fc.array(word, { minLength: 50, maxLength: 400 }).map((ws) => ws.join(' ').slice(0, 1024));
const longIn = fc.array(fc.oneof(word, fc.integer(), fc.constant(null)), { minLength: 1000, maxLength: 1000 });
const leaf = fc.oneof(
  longText.map((t) => ({ fuzzy: { name: t } })),
  longText.map((t) => ({ keyword: { description: t } })),
  longText.map((t) => ({ like: { description: `%${t.slice(0, 1020)}%` } })),
  longText.map((t) => ({ eq: { 'metadata.region': t } })),
  fc.tuple(fc.constantFrom('email', 'invoice_prefix', 'balance'), longIn).map(([p, vs]) => ({ in: { [p]: p === 'balance' ? vs.map((v) => (typeof v === 'string' ? v.length : v)) : vs.map((v) => (typeof v === 'number' ? String(v) : v)) } })),
);
/** 500 nodes: one and/or over 499 leaves, or a chain of 16 nested nots and ands around them. */
const bounded = fc
  .tuple(fc.constantFrom('and', 'or'), fc.array(leaf, { minLength: 499, maxLength: 499 }))
  .map(([op, leaves]) => ({ [op]: leaves }))
  // The body limit counts bytes: a filter of short, partly non-ASCII words can be under 1 MiB of
  // characters and over it in UTF-8 (seed 408371203: 400, "request body exceeds 1 MiB").
  .filter((f) => Buffer.byteLength(JSON.stringify(f)) < MAX_BODY - 2048);

const backends: ('postgres' | 'opensearch')[] = ['postgres'];
if (realOpenSearch('filters at the bounds on OpenSearch') !== null) backends.push('opensearch');

describe.each(backends)('filters at the contract bounds (%s)', (search) => {
  let h: Harness;
  let token: string;
  let id: string;
  beforeAll(async () => {
    ({ h, id } = await startSyncedHarness(undefined, search));
    token = await h.token();
  });
  afterAll(async () => h?.close());

  it('run, or (OpenSearch only) answer 400 invalid_query at query.filter naming the clause limit', async () => {
    let ran = 0;
    await fc.assert(
      fc.asyncProperty(bounded, async (filter) => {
        const res = await h.app.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${id}/execute`, headers: { authorization: `Bearer ${token}` }, payload: { entity: 'customers', action: 'search', params: { query: { filter }, limit: 5 } } });
        if (search === 'postgres' || res.statusCode === 200) {
          expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
          ran++;
          return;
        }
        expect(res.statusCode, res.body.slice(0, 500)).toBe(400);
        expect(res.json()).toMatchObject({ error: { code: 'invalid_query', path: 'query.filter', message: expect.stringContaining('clause') } });
      }),
      // No shrinking: a smaller filter says nothing about the bounds, and each run is a large search.
      { numRuns: 12, endOnFailure: true, seed: Number(process.env.PROPERTY_SEED ?? Date.now() % 2 ** 31) },
    );
    if (search === 'postgres') expect(ran).toBe(12);
  }, 600_000);
});
