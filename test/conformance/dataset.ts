/**
 * The conformance dataset: fourteen records chosen for the edge cases of DESIGN §6 — missing
 * vs null vs [] vs [null], wrong JSON types in typed fields, arrays at sub-paths, unicode and
 * code-point order, `%`/`_`/`\` inside values, near-miss words for fuzzy, `any` inside `any`,
 * object keys that SQL could misread (`null`, a numeric-looking `+0`).
 */
import type { SearchTarget } from '../../src/search/dsl/ast.js';

export const target: SearchTarget = Object.freeze({
  connectorType: 'conformance',
  entity: 'things',
  idField: 'id',
  searchable: Object.freeze({
    id: 'string',
    name: 'string',
    email: 'string',
    created: 'string',
    age: 'int',
    balance: 'number',
    active: 'boolean',
    address: 'object',
    tags: 'array',
    scores: 'array',
    orders: 'array',
  }),
  // Exercises the lookup-index path of the Postgres backend (exact matches on these two).
  lookup: Object.freeze(['name', 'email']),
});

export const records: readonly { id: string; doc: Record<string, unknown> }[] = [
  { id: 'r01', doc: { id: 'r01', name: 'Ada Lovelace', email: 'ada@example.com', age: 36, balance: 100.5, active: true, address: { city: 'London', zip: 'N1' }, tags: ['vip', 'beta'], scores: [1, 5], orders: [{ sku: 'A-1', qty: 2, note: 'first order' }] } },
  { id: 'r02', doc: { id: 'r02', name: 'Grace Hopper', email: 'grace@navy.mil', age: 85, balance: -3, active: false, address: { city: 'Arlington', null: 'x', codes: ['x'] }, tags: ['vip'], orders: [{ sku: 'B-2', qty: 1, note: 'compiler manual' }] } },
  { id: 'r03', doc: { id: 'r03', name: 'alan turing', email: null, age: 41, balance: 0, active: true, address: null, tags: [], scores: [] } },
  { id: 'r04', doc: { id: 'r04', name: 'Zoë Müller', email: 'zoe@example.de', age: null, balance: 12, active: false, address: { city: 'Zürich' }, tags: ['beta', null] } },
  { id: 'r05', doc: { id: 'r05', name: '100% Pure_Data', email: 'pure@data.io', age: 7, balance: 7, active: true, tags: ['100%'] } },
  { id: 'r06', doc: { id: 'r06', name: 'Édouard', email: 'ed@example.fr', created: '2024-01-02T00:00:00Z', age: 30 } },
  { id: 'r07', doc: { id: 'r07', email: 'ghost@example.com', active: true } },
  { id: 'r08', doc: { id: 'r08', name: 'Ada Byron', email: 'ADA@EXAMPLE.COM', age: 36, balance: 100.5, active: false } },
  { id: 'r09', doc: { id: 'r09', name: 'Linus', tags: 'solo', age: 'forty' } },
  { id: 'r10', doc: { id: 'r10', name: 'Backslash \\ path', email: 'back\\slash@x.io' } },
  { id: 'r11', doc: { id: 'r11', name: 'Zed', email: 'r11@x.io', address: { city: ['Paris', 'Lyon'] }, orders: [{ sku: 'A-1', qty: 5, lines: [] }, { sku: 'C-3', qty: 1, note: 'rush delivery', lines: [{ name: 'ZOË' }] }] } },
  { id: 'r12', doc: { id: 'r12', name: 'Adah Lovelock', email: 'adah@x.io', age: 29 } },
  { id: 'r13', doc: { id: 'r13', name: '😀 Emoji', email: 'emoji@x.io', created: '2023-12-31T23:59:59Z' } },
  { id: 'r14', doc: { id: 'r14', name: 'a', email: 'a@b.c', active: null } },
];

export const ALL = records.map((r) => r.id);
export const except = (...ids: string[]): string[] => ALL.filter((id) => !ids.includes(id));
