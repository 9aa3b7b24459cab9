/**
 * The conformance table: one query, the ids it must return in order (worked out by hand from
 * DESIGN §6, not from any implementation), and for scored queries the scores. The reference
 * evaluator and every backend run the same table.
 */
import { except } from './dataset.js';

/** One conformance case. */
export interface ConformanceCase {
  readonly name: string;
  readonly params: Record<string, unknown>;
  readonly ids: readonly string[];
  readonly scores?: readonly number[];
  readonly data?: Record<string, unknown>;
}

const f = (filter: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ query: { filter }, limit: 100, ...extra });
const sorted = (sort: unknown, filter?: unknown): Record<string, unknown> => ({ query: filter === undefined ? { sort } : { sort, filter }, limit: 100 });

export const cases: readonly ConformanceCase[] = [
  { name: 'eq string exact', params: f({ eq: { name: 'Ada Lovelace' } }), ids: ['r01'] },
  { name: 'eq is case-sensitive', params: f({ eq: { email: 'ada@example.com' } }), ids: ['r01'] },
  { name: 'eq null = missing or null', params: f({ eq: { email: null } }), ids: ['r03', 'r09'] },
  { name: 'neq null = present', params: f({ neq: { email: null } }), ids: except('r03', 'r09') },
  { name: 'neq matches missing', params: f({ neq: { name: 'Ada Lovelace' } }), ids: except('r01') },
  { name: 'gt int skips wrong-typed values', params: f({ gt: { age: 36 } }), ids: ['r02', 'r03'] },
  { name: 'gte int', params: f({ gte: { age: 36 } }), ids: ['r01', 'r02', 'r03', 'r08'] },
  { name: 'lt number', params: f({ lt: { balance: 0 } }), ids: ['r02'] },
  { name: 'lte number', params: f({ lte: { balance: 0 } }), ids: ['r02', 'r03'] },
  { name: 'gt string by code point', params: f({ gt: { name: 'Zoë' } }), ids: ['r03', 'r04', 'r06', 'r13', 'r14'] },
  { name: 'string range on timestamps', params: f({ gte: { created: '2024-01-01T00:00:00Z' } }), ids: ['r06'] },
  { name: 'in', params: f({ in: { age: [36, 85] } }), ids: ['r01', 'r02', 'r08'] },
  { name: 'in with null', params: f({ in: { email: [null, 'pure@data.io'] } }), ids: ['r03', 'r05', 'r09'] },
  { name: 'in [] matches nothing', params: f({ in: { age: [] } }), ids: [] },
  // Past 32 values the Postgres backend tests membership with one array parameter: the same answers.
  { name: 'in, a long list of numbers', params: f({ in: { age: [36, 85, ...Array.from({ length: 40 }, (_, i) => 1000 + i)] } }), ids: ['r01', 'r02', 'r08'] },
  { name: 'in, a long list with null', params: f({ in: { email: [null, 'pure@data.io', ...Array.from({ length: 40 }, (_, i) => `n${i}@x.io`)] } }), ids: ['r03', 'r05', 'r09'] },
  { name: 'like substring, case-insensitive', params: f({ like: { name: 'ada' } }), ids: ['r01', 'r08', 'r12'] },
  { name: 'like prefix', params: f({ like: { name: 'ada%' } }), ids: ['r01', 'r08', 'r12'] },
  { name: 'like escaped %', params: f({ like: { name: '%\\%%' } }), ids: ['r05'] },
  { name: 'like escaped _', params: f({ like: { name: '%\\_%' } }), ids: ['r05'] },
  { name: 'like _ is one character', params: f({ like: { name: '_' } }), ids: ['r14'] },
  { name: 'like mixed case domain', params: f({ like: { email: '%@example.%' } }), ids: ['r01', 'r04', 'r06', 'r07', 'r08'] },
  { name: 'like escaped backslash', params: f({ like: { name: '\\\\' } }), ids: ['r10'] },
  { name: 'contains', params: f({ contains: { tags: 'vip' } }), ids: ['r01', 'r02'] },
  { name: 'eq on array = any element', params: f({ eq: { tags: 'beta' } }), ids: ['r01', 'r04'] },
  { name: 'eq null on array: missing, [], [null]', params: f({ eq: { tags: null } }), ids: ['r03', 'r06', 'r07', 'r08', 'r10', 'r11', 'r12', 'r13', 'r14'] },
  { name: 'gt on array element', params: f({ gt: { scores: 4 } }), ids: ['r01'] },
  { name: 'object sub-path', params: f({ eq: { 'address.city': 'London' } }), ids: ['r01'] },
  { name: 'array at a sub-path', params: f({ eq: { 'address.city': 'Lyon' } }), ids: ['r11'] },
  { name: 'sub-path null', params: f({ eq: { 'address.city': null } }), ids: ['r03', 'r05', 'r06', 'r07', 'r08', 'r09', 'r10', 'r12', 'r13', 'r14'] },
  { name: 'any element', params: f({ any: { orders: { eq: { sku: 'A-1' } } } }), ids: ['r01', 'r11'] },
  { name: 'any with and on one element', params: f({ any: { orders: { and: [{ eq: { sku: 'A-1' } }, { gt: { qty: 3 } }] } } }), ids: ['r11'] },
  { name: 'not any', params: f({ not: { any: { orders: { eq: { sku: 'A-1' } } } } }), ids: except('r01', 'r11') },
  { name: 'any inside any reads the inner element’s text', params: f({ any: { orders: { any: { lines: { like: { name: 'ë' } } } } } }), ids: ['r11'] },
  { name: 'any inside any scores the inner element', params: f({ any: { orders: { any: { lines: { fuzzy: { name: 'zoë' } } } } } }), ids: ['r11'], scores: [1] },
  { name: 'an object key named null is a key', params: f({ eq: { 'address.null': null } }), ids: except('r02') },
  { name: 'like on an object key named null', params: f({ like: { 'address.null': 'x' } }), ids: ['r02'] },
  { name: 'a numeric-looking key never indexes an array', params: f({ eq: { 'address.codes.+0': null } }), ids: except() },
  { name: 'like on a numeric-looking key never indexes an array', params: f({ like: { 'address.codes.+0': 'x' } }), ids: [] },
  { name: 'or', params: f({ or: [{ eq: { name: 'Linus' } }, { eq: { age: 7 } }] }), ids: ['r05', 'r09'] },
  { name: 'and', params: f({ and: [{ eq: { active: true } }, { gte: { age: 36 } }] }), ids: ['r01', 'r03'] },
  { name: 'several keys are ANDed', params: f({ eq: { active: true }, lt: { age: 40 } }), ids: ['r01', 'r05'] },
  { name: 'keyword any term', params: f({ keyword: { name: 'lovelace byron' } }), ids: ['r01', 'r08'], scores: [1, 1] },
  { name: 'keyword counts terms', params: f({ keyword: { name: 'ada lovelace' } }), ids: ['r01', 'r08'], scores: [2, 1] },
  { name: 'fuzzy two edits', params: f({ fuzzy: { name: 'lovelace' } }), ids: ['r01', 'r12'], scores: [1, 0.25] },
  // "data" is two edits from "ada" (insert d, substitute d→t): no match for a 3-letter term.
  { name: 'fuzzy one edit, prefix', params: f({ fuzzy: { name: 'ada' } }), ids: ['r01', 'r08', 'r12'], scores: [1, 1, 0.5] },
  { name: 'fuzzy every term in one string', params: f({ fuzzy: { name: 'ada lovelace' } }), ids: ['r01', 'r12'], scores: [2, 0.75] },
  { name: 'or: unscored branch hits score 0 and sort last', params: f({ or: [{ fuzzy: { name: 'ada' } }, { eq: { age: 85 } }] }), ids: ['r01', 'r08', 'r12', 'r02'], scores: [1, 1, 0.5, 0] },
  { name: 'sort int desc: strings above numbers, missing last', params: sorted([{ age: 'desc' }]), ids: ['r09', 'r02', 'r03', 'r01', 'r08', 'r06', 'r12', 'r05', 'r04', 'r07', 'r10', 'r11', 'r13', 'r14'] },
  { name: 'sort string asc by code point', params: sorted([{ name: 'asc' }]), ids: ['r05', 'r08', 'r01', 'r12', 'r10', 'r02', 'r09', 'r11', 'r04', 'r14', 'r03', 'r06', 'r13', 'r07'] },
  { name: 'sort string desc, missing still last', params: sorted([{ name: 'desc' }]), ids: ['r13', 'r06', 'r03', 'r14', 'r04', 'r11', 'r09', 'r02', 'r10', 'r12', 'r01', 'r08', 'r05', 'r07'] },
  { name: 'two sort keys', params: sorted([{ active: 'asc' }, { balance: 'desc' }]), ids: ['r08', 'r04', 'r02', 'r01', 'r05', 'r03', 'r07', 'r06', 'r09', 'r10', 'r11', 'r12', 'r13', 'r14'] },
  { name: 'sort with filter', params: sorted([{ balance: 'asc' }], { eq: { active: true } }), ids: ['r03', 'r05', 'r01', 'r07'] },
  { name: 'fields projection', params: { query: { filter: { eq: { id: 'r01' } } }, fields: ['address.city', ['name']] }, ids: ['r01'], data: { address: { city: 'London' }, name: 'Ada Lovelace' } },
];
