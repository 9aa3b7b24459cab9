/**
 * The search bench's queries: one per target of the text-search issue, each with the obvious SQL
 * over a naive jsonb table (no search indexes) as its baseline. `sample` holds records of the
 * loaded data, so that exact matches find something.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../src/store/db.js';

/** One measured query. */
export interface Case {
  readonly name: string;
  readonly target: number | null;
  readonly params: () => unknown;
  readonly naive: (db: Kysely<DB>) => Promise<unknown>;
}

export function cases(sample: Record<string, unknown>[], n: number): Case[] {
  const pick = (i: number) => sample[i % sample.length] as Record<string, unknown>;
  const recent = 1_767_225_600 - Math.floor(n * 37 * 0.05);
  return [
    { name: 'eq string', target: 5, params: () => ({ query: { filter: { eq: { email: pick(1).email } } }, limit: 50 }), naive: (db) => sql`select id, doc from naive where doc->>'email' = ${String(pick(1).email)} order by id limit 50`.execute(db) },
    { name: 'range + sort + limit 50', target: 20, params: () => ({ query: { filter: { gte: { created: recent } }, sort: [{ created: 'desc' }] }, limit: 50 }), naive: (db) => sql`select id, doc from naive where (doc->>'created')::bigint >= ${recent} order by (doc->>'created')::bigint desc, id limit 50`.execute(db) },
    { name: 'like substring', target: 30, params: () => ({ query: { filter: { like: { email: 'lovelace12' } } }, limit: 50 }), naive: (db) => sql`select id, doc from naive where doc->>'email' ilike '%lovelace12%' order by id limit 50`.execute(db) },
    // A person's name with a typo: the way an agent looks someone up.
    { name: 'fuzzy two words with typos, ranked', target: 100, params: () => ({ query: { filter: { fuzzy: { name: 'ada lovelase' } } }, limit: 50 }), naive: (db) => sql`select id, doc from naive where exists (select 1 from regexp_split_to_table(lower(doc->>'name'), '[^[:alnum:]]+') w where levenshtein(w, 'lovelase') <= 2) and exists (select 1 from regexp_split_to_table(lower(doc->>'name'), '[^[:alnum:]]+') w where levenshtein(w, 'ada') <= 1 or w like 'ada%') order by id limit 50`.execute(db) },
    { name: 'keyword two words, ranked', target: 30, params: () => ({ query: { filter: { keyword: { name: 'grace hopper' } } }, limit: 50 }), naive: (db) => sql`select id, doc from naive where lower(doc->>'name') ~ '\\m(grace|hopper)\\M' order by (lower(doc->>'name') ~ '\\mgrace\\M')::int + (lower(doc->>'name') ~ '\\mhopper\\M')::int desc, id limit 50`.execute(db) },
    { name: 'eq other field, rare value (top-level)', target: 5, params: () => ({ query: { filter: { eq: { invoice_prefix: pick(1).invoice_prefix } } }, limit: 50 }), naive: (db) => sql`select id, doc from naive where doc->>'invoice_prefix' = ${String(pick(1).invoice_prefix)} order by id limit 50`.execute(db) },
    { name: 'eq other field, rare value (nested)', target: 5, params: () => ({ query: { filter: { eq: { 'metadata.region': (pick(2).metadata as Record<string, unknown>)?.region } } }, limit: 50 }), naive: (db) => sql`select id, doc from naive where doc->'metadata'->>'region' = ${String((pick(2).metadata as Record<string, unknown>)?.region)} order by id limit 50`.execute(db) },
    // Several rare values at once, which share common words (`support-998`, `support-12`): each value is required whole.
    { name: 'in other field, 4 rare values (nested)', target: null, params: () => ({ query: { filter: { in: { 'metadata.region': regions(sample) } } }, limit: 50 }), naive: (db) => sql`select id, doc from naive where doc->'metadata'->>'region' = any(${regions(sample)}::text[]) order by id limit 50`.execute(db) },
    { name: 'like common pattern', target: 50, params: () => ({ query: { filter: { like: { email: '%garcia%' } } }, limit: 50 }), naive: (db) => sql`select id, doc from naive where doc->>'email' ilike '%garcia%' order by id limit 50`.execute(db) },
    // The common pattern on a first page sorted by a time field: walked along its sort index (like-walk.ts).
    { name: 'like common pattern, sorted by created', target: null, params: () => ({ query: { filter: { like: { email: '%garcia%' } }, sort: [{ created: 'desc' }] }, limit: 50 }), naive: (db) => sql`select id, doc from naive where doc->>'email' ilike '%garcia%' order by (doc->>'created')::bigint desc, id limit 50`.execute(db) },
    { name: 'fuzzy AND eq, sorted by created', target: 100, params: () => ({ query: { filter: { and: [{ fuzzy: { name: 'ada lovelase' } }, { eq: { currency: 'eur' } }] }, sort: [{ created: 'desc' }] }, limit: 50 }), naive: (db) => sql`select id, doc from naive where doc->>'currency' = 'eur' and lower(doc->>'name') ~ '\\mlovelace\\M' order by (doc->>'created')::bigint desc, id limit 50`.execute(db) },
    {
      name: '5-clause and/or', target: null,
      params: () => ({ query: { filter: { and: [{ eq: { currency: 'eur' } }, { or: [{ eq: { tax_exempt: 'none' } }, { like: { name: 'ada%' } }] }, { gte: { balance: 50_000 } }, { neq: { delinquent: true } }] } }, limit: 50 }),
      naive: (db) => sql`select id, doc from naive where doc->>'currency' = 'eur' and (doc->>'tax_exempt' = 'none' or doc->>'name' ilike 'ada%') and (doc->>'balance')::bigint >= 50000 and coalesce(doc->>'delinquent', '') <> 'true' order by id limit 50`.execute(db),
    },
  ];
}

/** Up to four distinct regions of the sample's records (the field is nullable). */
function regions(sample: readonly Record<string, unknown>[]): string[] {
  const all = sample.map((r) => (r.metadata as Record<string, unknown> | undefined)?.region).filter((x): x is string => typeof x === 'string');
  return [...new Set(all)].slice(0, 4);
}
